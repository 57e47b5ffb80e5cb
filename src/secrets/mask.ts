/**
 * Secret masking (docs/design.md §6): a secret appears as its first 4 characters followed by `…`, and a tag of six hex
 * digits that tells two masked secrets apart (every JWT starts `eyJh`: without the tag, the access token a rule sent
 * and the refreshed one it compared it with read the same). The tag is an HMAC of the secret under a key drawn once per
 * process: the same secret has the same tag throughout a run's reports and console, and the tag reveals nothing of
 * the secret, not even to a dictionary of likely passwords (the key never leaves the process).
 * The masker learns secrets as the run sees them (credentials, tokens in responses, codes from the control API)
 * and masks every string that leaves the runner.
 */
import { createHmac, randomBytes } from 'node:crypto';

const TAG_KEY = randomBytes(32);
/** Tags already computed, by secret: a run masks the same few thousand secrets again and again. */
const TAGS = new Map<string, string>();
const TAGS_KEPT = 100_000;

/** The six hex digits after a masked secret's `…`: the same for the same secret within this process. */
export function secretTag(secret: string): string {
  let tag = TAGS.get(secret);
  if (tag === undefined) {
    tag = createHmac('sha256', TAG_KEY).update(secret, 'utf8').digest('hex').slice(0, 6);
    if (TAGS.size >= TAGS_KEPT) TAGS.clear();
    TAGS.set(secret, tag);
  }
  return tag;
}

/** `eyJh…3fa9c1`: the first 4 characters, `…`, the secret's tag. */
export function maskSecret(secret: string): string {
  return `${secret.slice(0, 4)}…${secretTag(secret)}`;
}

/** A masked secret as maskSecret writes it (and as reports written before the tag wrote it: no tag). */
export const MASKED_SECRET = /[^\s"'&=?/:,;]{1,4}…(?:[0-9a-f]{6})?/g;

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
 * such characters; inside a run, a rolling hash over 8-character windows (Rabin–Karp) finds them in one pass whatever
 * their number. The hash is 32-bit integer arithmetic and a bitset of the secrets' prefix hashes answers "surely not" for
 * nearly every window before any map is read: the leak scan reads every answer of a run (megabytes) on the runner's
 * one thread. Secrets with other characters are few and searched as is.
 */
export class Masker {
  /** Prefix hash → token secrets starting with a prefix of that hash, longest first. */
  readonly #byHash = new Map<number, string[]>();
  /** One bit per bucket of prefix hashes in #byHash: a clear bit means no secret starts at this window. */
  readonly #maybe = new Uint32Array(FILTER_BITS / 32);
  /** Secrets with characters outside TOKEN_CHARS, longest first. */
  readonly #others: string[] = [];
  #count = 0;
  readonly #kinds = new Map<string, string>();
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
    const bit = filterBit(key);
    this.#maybe[bit >>> 5]! |= 1 << (bit & 31);
    const list = this.#byHash.get(key);
    if (list?.includes(secret)) return;
    if (list) {
      list.push(secret);
      list.sort((a, b) => b.length - a.length); // a secret inside a longer one is masked whole
    } else this.#byHash.set(key, [secret]);
    this.#count += 1;
  }

  /** A bearer a need handed out, and its kind (src/needs/credentials.ts): masked as any secret, and named per exchange. */
  addCredential(secret: string, kind: string): void {
    this.add(secret);
    this.#kinds.set(secret, kind);
  }

  /** The kind of a credential taught with `addCredential`, else undefined. */
  kindOf(secret: string): string | undefined {
    return this.#kinds.get(secret);
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
    // One pass over the text: `run` counts the token characters ending at i, `h` hashes the last PREFIX of them.
    let run = 0;
    let h = 0;
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (c >= 128 || TOKEN_CHAR[c] === 0) {
        run = 0;
        h = 0;
        continue;
      }
      run += 1;
      if (run <= PREFIX) {
        h = (Math.imul(h, BASE) + c) | 0;
        if (run < PREFIX) continue;
      } else h = roll(h, text.charCodeAt(i - PREFIX), c);
      const start = i - PREFIX + 1;
      if (this.#mayStartAt(h) && this.#byHash.get(h)?.some((secret) => text.startsWith(secret, start))) return true;
    }
    return false;
  }

  /**
   * Whether `mask(text)` would change `text`, without building the masked text: the leak scan asks it of every header
   * of every answer, and nearly all of them hold no secret.
   */
  changes(text: string): boolean {
    if (this.#count === 0 || text.length < PREFIX) return false;
    if (this.#byHash.size > 0) for (const [run] of text.matchAll(TOKEN_RUNS)) if (this.#runChanges(run)) return true;
    return this.#others.some((secret) => text.includes(secret));
  }

  /** Whether #maskRun would change `run`: a secret starts in it, or it ends inside one (the same windows, the same tests). */
  #runChanges(run: string): boolean {
    let h = windowHash(run, 0);
    for (let i = 0; ; i += 1) {
      const candidates = this.#mayStartAt(h) ? this.#byHash.get(h) : undefined;
      if (candidates) {
        if (candidates.some((c) => run.startsWith(c, i))) return true;
        const rest = run.length - i;
        if (rest < this.#longest && candidates.some((c) => c.length > rest && c.startsWith(run.slice(i)))) return true;
      }
      if (i + PREFIX >= run.length) return false;
      h = roll(h, run.charCodeAt(i), run.charCodeAt(i + PREFIX));
    }
  }

  #mayStartAt(h: number): boolean {
    const bit = filterBit(h);
    return (this.#maybe[bit >>> 5]! & (1 << (bit & 31))) !== 0;
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
      const candidates = this.#mayStartAt(h) ? this.#byHash.get(h) : undefined;
      const hit = candidates?.find((c) => run.startsWith(c, i));
      if (hit) {
        out += run.slice(copied, i) + maskSecret(hit);
        i += hit.length;
        copied = i;
        if (i > run.length - PREFIX) break;
        h = windowHash(run, i);
        continue;
      }
      // A secret clipped where the run ends ("eyJ0eXAi…" in a detail cut at 100 characters): its prefix is masked too.
      const clipped = run.length - i < this.#longest ? candidates?.find((c) => c.length > run.length - i && c.startsWith(run.slice(i))) : undefined;
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
/** TOKEN's characters by char code (all ASCII), for the scan that reads a text one code at a time. */
const TOKEN_CHAR = Uint8Array.from({ length: 128 }, (_, c) => (TOKEN.test(String.fromCharCode(c)) ? 1 : 0));
/** Hashes are polynomials in BASE modulo 2^32 (Math.imul wraps); a match is always confirmed by comparing the text. */
const BASE = 0x01000193;
/** BASE^(PREFIX-1) mod 2^32, to take the leaving character out of the window. */
const LEAD = (() => {
  let p = 1;
  for (let i = 1; i < PREFIX; i += 1) p = Math.imul(p, BASE);
  return p;
})();
/** 2^20 bits (128 KiB): with ten thousand secrets about one window in a hundred reads the map. */
const FILTER_BITS = 1 << 20;

function windowHash(text: string, start: number): number {
  let h = 0;
  for (let i = start; i < start + PREFIX; i += 1) h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
  return h;
}

function roll(h: number, leaving: number, entering: number): number {
  return (Math.imul((h - Math.imul(leaving, LEAD)) | 0, BASE) + entering) | 0;
}

/** The filter's bit for a hash: its top 20 bits after a multiplicative mix (the low bits of a polynomial hash depend on few characters). */
function filterBit(h: number): number {
  return Math.imul(h, 0x9e3779b1) >>> 12;
}
