/**
 * Secret masking (DESIGN.md §6): a secret appears as its first 4 characters followed by `…`.
 * The masker learns secrets as the run sees them (credentials, tokens in responses, codes from the control API)
 * and masks every string that leaves the runner.
 */

export function maskSecret(secret: string): string {
  return `${secret.slice(0, 4)}…`;
}

/** Response fields whose values are secrets, whatever the endpoint. */
export const SECRET_FIELDS = ['access_token', 'refresh_token', 'code', 'client_secret', 'long_lived_token', 'secret', 'channel_secret'] as const;

/**
 * Knows every secret seen so far and masks them in any text. A run learns thousands of codes and tokens, so
 * matching is indexed by each secret's first 8 characters: one pass over the text, whatever the number of secrets.
 */
export class Masker {
  readonly #byPrefix = new Map<string, string[]>();
  #count = 0;

  /** Remembers a secret. Values shorter than 8 characters are not secrets worth a blanket replace. */
  add(secret: string | undefined): void {
    if (!secret || secret.length < PREFIX) return;
    const key = secret.slice(0, PREFIX);
    const list = this.#byPrefix.get(key);
    if (list?.includes(secret)) return;
    if (list) {
      list.push(secret);
      list.sort((a, b) => b.length - a.length); // longest first, so a secret inside a longer one is masked whole
    } else this.#byPrefix.set(key, [secret]);
    this.#count += 1;
  }

  /** Learns every secret field of a parsed JSON body or query, at any depth. */
  learnFrom(value: unknown): void {
    if (value === null || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === 'string' && (SECRET_FIELDS as readonly string[]).includes(key)) this.add(v);
      else if (typeof v === 'object') this.learnFrom(v);
    }
  }

  mask(text: string): string {
    if (this.#count === 0 || text.length < PREFIX) return text;
    let out = '';
    let copied = 0;
    for (let i = 0; i <= text.length - PREFIX; ) {
      const candidates = this.#byPrefix.get(text.slice(i, i + PREFIX));
      const hit = candidates?.find((c) => text.startsWith(c, i));
      if (hit) {
        out += text.slice(copied, i) + maskSecret(hit);
        i += hit.length;
        copied = i;
      } else i += 1;
    }
    return copied === 0 ? text : out + text.slice(copied);
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
