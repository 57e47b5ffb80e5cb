/**
 * The chat interface signature (§5.2), exported for integrators: every chat request carries `Content-Type`, `Date`
 * (RFC 2822), `Content-MD5` (lower-case hex MD5 of the exact body bytes; of the empty string for a GET) and
 * `X-Signature`: lower-case hex HMAC-SHA1, keyed with the channel secret, of five lines joined by "\n":
 * upper-case method, the MD5 value, the Content-Type value, the Date value, the path without its query string.
 *
 * The emulator verifies with the same `signingString`, so the two cannot drift apart.
 */
import { createHash, createHmac } from 'node:crypto';

/** MD5 of the empty string: the Content-MD5 of every GET and of any bodiless request. */
export const EMPTY_MD5 = 'd41d8cd98f00b204e9800998ecf8427e';

export const CHAT_CONTENT_TYPE = 'application/json';

/** The four headers of §5.2, spelt as the spec's table spells them (`signChatRequest` sends them lower-case). */
export const CHAT_SIGNATURE_HEADERS = { contentType: 'Content-Type', date: 'Date', md5: 'Content-MD5', signature: 'X-Signature' } as const;

export interface SigningParts {
  readonly method: string;
  /** The Content-MD5 value as sent. */
  readonly md5: string;
  readonly contentType: string;
  readonly date: string;
  /** The request path, e.g. `/v2/origin/custom/<scope_id>`; a query string, if any, is cut off. */
  readonly path: string;
}

/** Lower-case hex MD5 of the body bytes (a string is taken as UTF-8). */
export function contentMd5(body: string | Uint8Array | undefined): string {
  if (body === undefined || body.length === 0) return EMPTY_MD5;
  return createHash('md5').update(body).digest('hex');
}

/** The path a signature covers: the path of a URL or path, without query string or fragment. */
export function signedPath(urlOrPath: string): string {
  const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(urlOrPath) ? urlOrPath.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') : urlOrPath;
  return path.split(/[?#]/, 1)[0] || '/';
}

export function signingString(p: SigningParts): string {
  return [p.method.toUpperCase(), p.md5, p.contentType, p.date, signedPath(p.path)].join('\n');
}

/**
 * Signing strings that differ from §5.2's in form only (issue 28 item 4): a verifier that normalises what it signs
 * takes them, a literal one refuses them. `empty-md5-line` is sent without a Content-MD5 header.
 */
export const SIGNING_VARIANTS = ['lower-case-method', 'crlf', 'reordered', 'trailing-lf', 'empty-md5-line'] as const;
export type SigningVariant = (typeof SIGNING_VARIANTS)[number];

export function signingStringVariant(p: SigningParts, variant: SigningVariant): string {
  const lines = [p.method.toUpperCase(), p.md5, p.contentType, p.date, signedPath(p.path)];
  switch (variant) {
    case 'lower-case-method': return [p.method.toLowerCase(), ...lines.slice(1)].join('\n');
    case 'crlf': return lines.join('\r\n');
    case 'reordered': return [lines[1], lines[0], ...lines.slice(2)].join('\n');
    case 'trailing-lf': return `${lines.join('\n')}\n`;
    case 'empty-md5-line': return [lines[0], '', ...lines.slice(2)].join('\n');
  }
}

/** The HMAC-SHA1 of a variant signing string, in lower-case hex. */
export function variantSignature(secret: string, parts: SigningParts, variant: SigningVariant): string {
  return createHmac('sha1', secret).update(signingStringVariant(parts, variant)).digest('hex');
}

/** Lower-case hex HMAC-SHA1 of the signing string keyed with the channel secret. */
export function chatSignature(secret: string, parts: SigningParts): string {
  return createHmac('sha1', secret).update(signingString(parts)).digest('hex');
}

/**
 * What a signature can be computed with: the stated HMAC-SHA1, and the look-alikes a careless verifier might also
 * take (another HMAC hash, or a plain hash of the signing string without the key), for the rules that send them.
 */
export type SignatureAlgorithm = 'hmac-sha1' | 'hmac-sha256' | 'hmac-md5' | 'sha1';

export function signatureWith(algorithm: SignatureAlgorithm, secret: string, parts: SigningParts): string {
  const text = signingString(parts);
  switch (algorithm) {
    case 'hmac-sha1': return chatSignature(secret, parts);
    case 'hmac-sha256': return createHmac('sha256', secret).update(text).digest('hex');
    case 'hmac-md5': return createHmac('md5', secret).update(text).digest('hex');
    case 'sha1': return createHash('sha1').update(text).digest('hex');
  }
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * RFC 2822 date-time. `zone` `'GMT'` gives `Thu, 29 Oct 2020 11:59:55 GMT` (what `Date#toUTCString` prints);
 * a number of minutes east of UTC gives `Thu, 29 Oct 2020 11:59:55 +0000` (0) or `... 14:59:55 +0300` (180).
 */
export function rfc2822Date(date: Date, zone: 'GMT' | number = 0): string {
  const offset = zone === 'GMT' ? 0 : zone;
  const d = new Date(date.getTime() + offset * 60_000);
  const stamp = `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (zone === 'GMT') return `${stamp} GMT`;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${stamp} ${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

const RFC2822 = /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?(\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2})(?::(\d{2}))? ([+-]\d{4}|GMT|UT|UTC)$/;

/** Milliseconds since the epoch of an RFC 2822 date with a numeric zone or GMT/UT; undefined when it is not one. */
export function parseRfc2822(value: string): number | undefined {
  const m = RFC2822.exec(value.trim());
  if (!m) return undefined;
  const [, day, mon, year, hh, mm, ss, zone] = m;
  const base = Date.UTC(Number(year), MONTHS.indexOf(mon as (typeof MONTHS)[number]), Number(day), Number(hh), Number(mm), Number(ss ?? 0));
  if (Number(hh) > 23 || Number(mm) > 59 || Number(ss ?? 0) > 60 || Number(day) < 1 || Number(day) > 31) return undefined;
  let offsetMin = 0;
  if (zone!.startsWith('+') || zone!.startsWith('-')) {
    const z = Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(3));
    offsetMin = zone!.startsWith('-') ? -z : z;
  }
  return base - offsetMin * 60_000;
}

export interface SignOptions {
  readonly method: string;
  /** Full URL or path; the signature covers the path without the query string. */
  readonly url: string;
  readonly body?: string | Uint8Array;
  readonly secret: string;
  readonly date?: Date;
  /** Zone of the Date header: minutes east of UTC, or 'GMT' (default `0`, i.e. `+0000`). */
  readonly zone?: 'GMT' | number;
  readonly contentType?: string;
}

/** The four §5.2 headers for one request. */
export function signChatRequest(o: SignOptions): Record<string, string> {
  const contentType = o.contentType ?? CHAT_CONTENT_TYPE;
  const md5 = contentMd5(o.body);
  const date = rfc2822Date(o.date ?? new Date(), o.zone ?? 0);
  const signature = chatSignature(o.secret, { method: o.method, md5, contentType, date, path: o.url });
  return { 'content-type': contentType, date, 'content-md5': md5, 'x-signature': signature };
}
