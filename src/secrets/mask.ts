/**
 * Secret masking (docs/design.md §6): a secret appears as its first 4 characters followed by `…`.
 * The masker learns secrets as the run sees them (credentials, tokens in responses, codes from the control API)
 * and masks every string that leaves the runner.
 */

export function maskSecret(secret: string): string {
  return `${secret.slice(0, 4)}…`;
}

/** Response fields whose values are secrets, whatever the endpoint. */
export const SECRET_FIELDS = ['access_token', 'refresh_token', 'code', 'client_secret', 'long_lived_token', 'secret', 'channel_secret'] as const;

/**
 * Of those, the fields whose values are secrets in the service's own answers: a code reaches the client in the redirect,
 * never in a body, and a body's `code` member is a name (the account's task types carry `"code": "FOLLOW_UP"`), which
 * the leak scan would otherwise take for a credential wherever it recurs.
 */
export const ANSWER_SECRET_FIELDS = SECRET_FIELDS.filter((f) => f !== 'code');

/**
 * Knows every secret seen so far and masks them in any text. A run learns thousands of codes and tokens and masks
 * megabytes of bodies, so: tokens (secrets of URL-safe characters, nearly all of them) can only sit inside a run of
 * such characters, which the regex engine finds natively; inside a run, a rolling hash over 8-character windows
 * (Rabin–Karp) finds them in one pass whatever their number. Secrets with other characters are few and searched as is.
 */
export class Masker {
  /** Prefix hash → token secrets starting with a prefix of that hash, longest first. */
  readonly #byHash = new Map<number, string[]>();
  /** Secrets with characters outside TOKEN_CHARS, longest first. */
  readonly #others: string[] = [];
  #count = 0;
  /** The longest token secret: a run's rest shorter than it may be a clipped one. */
  #longest = 0;

  /**
   * Remembers a secret, and the same secret in upper and in lower case: a near-miss case sends it so (a secret key
   * whose case is changed is still the key to anyone who reads it). Values shorter than 8 characters are not secrets
   * worth a blanket replace.
   */
  add(secret: string | undefined): void {
    if (!secret || secret.length < PREFIX) return;
    for (const variant of new Set([secret, secret.toUpperCase(), secret.toLowerCase()])) this.#addOne(variant);
  }

  #addOne(secret: string): void {
    if (!TOKEN.test(secret)) {
      if (this.#others.includes(secret)) return;
      this.#others.push(secret);
      this.#others.sort((a, b) => b.length - a.length);
      this.#count += 1;
      return;
    }
    this.#longest = Math.max(this.#longest, secret.length);
    const key = windowHash(secret, 0);
    const list = this.#byHash.get(key);
    if (list?.includes(secret)) return;
    if (list) {
      list.push(secret);
      list.sort((a, b) => b.length - a.length); // a secret inside a longer one is masked whole
    } else this.#byHash.set(key, [secret]);
    this.#count += 1;
  }

  /** Learns every secret field (of `fields`, default all) of a parsed JSON body or query, at any depth. */
  learnFrom(value: unknown, fields: readonly string[] = SECRET_FIELDS): void {
    if (value === null || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === 'string' && fields.includes(key)) this.add(v);
      else if (typeof v === 'object') this.learnFrom(v, fields);
    }
  }

  mask(text: string): string {
    if (this.#count === 0 || text.length < PREFIX) return text;
    let out = this.#byHash.size === 0 ? text : text.replace(TOKEN_RUNS, (run) => this.#maskRun(run));
    for (const secret of this.#others) if (out.includes(secret)) out = out.split(secret).join(maskSecret(secret));
    return out;
  }

  /** Whether `text` holds any secret seen so far; stops at the first (the leak scan reads every answer whole). */
  holdsSecret(text: string): boolean {
    if (this.#count === 0 || text.length < PREFIX) return false;
    if (this.#others.some((secret) => text.includes(secret))) return true;
    if (this.#byHash.size === 0) return false;
    for (const [run] of text.matchAll(TOKEN_RUNS)) {
      let h = windowHash(run, 0);
      for (let i = 0; ; i += 1) {
        if (this.#byHash.get(h)?.some((c) => run.startsWith(c, i))) return true;
        if (i + PREFIX >= run.length) break;
        h = roll(h, run.charCodeAt(i), run.charCodeAt(i + PREFIX));
      }
    }
    return false;
  }

  /**
   * Masks the token secrets inside one run of token characters, and a run that ends inside a secret (a detail clipped
   * before it was masked): no clip shows more of a secret than its masked prefix.
   */
  #maskRun(run: string): string {
    let out = '';
    let copied = 0;
    let h = windowHash(run, 0);
    for (let i = 0; ; ) {
      const hit = this.#byHash.get(h)?.find((c) => run.startsWith(c, i));
      if (hit) {
        out += run.slice(copied, i) + maskSecret(hit);
        i += hit.length;
        copied = i;
        if (i > run.length - PREFIX) break;
        h = windowHash(run, i);
        continue;
      }
      // A secret clipped where the run ends ("eyJ0eXAi…" in a detail cut at 100 characters): its prefix is masked too.
      const clipped = run.length - i < this.#longest ? this.#byHash.get(h)?.find((c) => c.length > run.length - i && c.startsWith(run.slice(i))) : undefined;
      if (clipped) return out + run.slice(copied, i) + maskSecret(clipped);
      if (i + PREFIX >= run.length) break;
      h = roll(h, run.charCodeAt(i), run.charCodeAt(i + PREFIX));
      i += 1;
    }
    return copied === 0 ? run : out + run.slice(copied);
  }

  /** Masks every string inside a JSON-like value. */
  maskDeep<T>(value: T): T {
    if (typeof value === 'string') return this.mask(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.maskDeep(v)) as T;
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.maskDeep(v)])) as T;
    }
    return value;
  }

  get size(): number {
    return this.#count;
  }
}

const PREFIX = 8;
/** Characters of tokens, codes and JWTs (base64url, hex, URL-safe); a run of them can hold a token secret. */
const TOKEN = /^[A-Za-z0-9._~+/=-]+$/;
const TOKEN_RUNS = /[A-Za-z0-9._~+/=-]{8,}/g;
const BASE = 257;
const MOD = 1_000_000_007;
/** BASE^(PREFIX-1) mod MOD, to take the leaving character out of the window. */
const LEAD = (() => {
  let p = 1;
  for (let i = 1; i < PREFIX; i += 1) p = (p * BASE) % MOD;
  return p;
})();

function windowHash(text: string, start: number): number {
  let h = 0;
  for (let i = start; i < start + PREFIX; i += 1) h = (h * BASE + text.charCodeAt(i)) % MOD;
  return h;
}

function roll(h: number, leaving: number, entering: number): number {
  const without = (h - ((leaving * LEAD) % MOD) + MOD) % MOD;
  return (without * BASE + entering) % MOD;
}
