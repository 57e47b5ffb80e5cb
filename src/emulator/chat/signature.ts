/**
 * Verifies the §5.2 signature of one chat request, before anything else looks at it. The MD5 is computed over the
 * raw bytes received (kept by the chat scope's body parser), the signing string is rebuilt with the shared
 * `signingString` of src/protocol/chat-signature.ts, and the HMAC is compared in constant time.
 * `Date` is RFC 2822 with a numeric zone or GMT, within 15 minutes of the emulator clock (docs/field-notes.md), or of
 * the machine's clock in a sandbox (`acceptMachineTime`, docs/sandbox.md "The clock").
 */
import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { CHAT_CONTENT_TYPE, EMPTY_MD5, parseRfc2822, rfc2822Date, SIGNING_VARIANTS, signingString, variantSignature } from '../../protocol/chat-signature.js';
import type { EmulatorContext } from '../context.js';
import { invalidSignature } from './errors.js';

/** How far `Date` may be from the emulator clock, either way. */
export const DATE_WINDOW_SECONDS = 15 * 60;

/** §5.2 states lower-case hex for both Content-MD5 and X-Signature; upper case is refused. */
const HEX = /^[0-9a-f]+$/;
/** Headers a client sends that are not part of the signature; anything else named X-… is unexpected. */
const KNOWN_X_HEADERS = new Set(['x-signature', 'x-request-id', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-real-ip']);

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Whether `hex` is lower-case hex of exactly the bytes of `digest`; constant time in the bytes compared. */
function hexEquals(hex: string, digest: Buffer): boolean {
  if (hex.length !== digest.length * 2 || !HEX.test(hex)) return false;
  return timingSafeEqual(Buffer.from(hex, 'hex'), digest);
}

/** MD5 of the body bytes as received (the MD5 of nothing for a bodiless request). */
function bodyMd5(body: Buffer | null | undefined): Buffer {
  return body && body.length > 0 ? createHash('md5').update(body).digest() : EMPTY_MD5_BYTES;
}
const EMPTY_MD5_BYTES = Buffer.from(EMPTY_MD5, 'hex');

/**
 * The last Date value read and its time: a client signs many requests within the same second, and the RFC 2822
 * pattern is the costliest step of the check after the two hashes.
 */
let lastDate: { readonly value: string; readonly ms: number | undefined } = { value: '', ms: undefined };

function dateMs(value: string): number | undefined {
  if (lastDate.value !== value) lastDate = { value, ms: parseRfc2822(value) };
  return lastDate.ms;
}

/** The channel secrets as HMAC keys, made once per secret rather than once per request. */
const hmacKeys = new Map<string, KeyObject>();

function hmacKey(secret: string): KeyObject {
  let key = hmacKeys.get(secret);
  if (!key) {
    if (hmacKeys.size >= 1024) hmacKeys.clear();
    hmacKeys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  }
  return key;
}

/** HMAC-SHA1 of the signing string for `path` (the query-signed fault signs the path with its query string). */
function expectedSignature(request: FastifyRequest, f: EmulatorContext['faults'], secret: string, parts: { md5: string; contentType: string; date: string }, path: string): Buffer {
  const signed = signingString({ method: request.method, ...parts, path });
  return createHmac('sha1', hmacKey(secret)).update(f.isOn('chat-query-signed') ? signed.slice(0, signed.lastIndexOf('\n') + 1) + path : signed).digest();
}

export function verifySignature(ctx: EmulatorContext, request: FastifyRequest, secret: string): void {
  const f = ctx.faults;
  if (f.isOn('chat-signature-not-checked')) return;
  // The event-kind faults: one part of the check bent on edit_message events and comments only (new messages keep it).
  const onEvent = (on: boolean) => on && isEditOrComment(request.rawBody);
  if (f.isOn('chat-extra-header-refused') || (f.isOn('chat-scope-extra-header-refused') && isScopeRoute(request.url)) || onEvent(f.isOn('chat-event-extra-header-refused'))) {
    const extra = Object.keys(request.headers).find((h) => h.startsWith('x-') && !KNOWN_X_HEADERS.has(h));
    if (extra) throw invalidSignature('unexpected header');
  }
  if (f.isOn('chat-signature-connect-only') && !request.url.split('?', 1)[0]!.endsWith('/connect')) return;
  const contentType = header(request, 'content-type');
  const date = header(request, 'date');
  // The normalising fault reads a missing Content-MD5 as an empty line of the signing string.
  const md5 = header(request, 'content-md5') ?? (f.isOn('chat-md5-header-optional') || onEvent(f.isOn('chat-event-md5-header-optional')) ? bodyMd5(request.rawBody).toString('hex') : f.isOn('chat-signing-string-normalised') ? '' : undefined);
  const signature = header(request, 'x-signature');
  if (signature === undefined && f.isOn('chat-signature-header-optional')) return;
  if (contentType === undefined || date === undefined || md5 === undefined || signature === undefined) {
    throw invalidSignature('Content-Type, Date, Content-MD5 and X-Signature are required');
  }
  const md5Unchecked = f.isOn('chat-md5-not-compared') || (request.method === 'GET' && f.isOn('chat-get-md5-not-checked')) || (md5 === '' && f.isOn('chat-signing-string-normalised'));
  if (!md5Unchecked && !hexEquals(md5, bodyMd5(request.rawBody))) {
    // §5.2: a GET's Content-MD5 is the MD5 of the empty string, whatever body the request carries (none is read).
    throw invalidSignature(request.method === 'GET' || request.method === 'HEAD'
      ? `Content-MD5 of a ${request.method} must be the MD5 of the empty string (${EMPTY_MD5}), whatever body it carries`
      : 'Content-MD5 does not match the body');
  }
  // The zone fault reads the clock time of Date as if it were UTC, whatever zone follows it.
  const when = f.isOn('chat-date-zone-ignored') ? dateMs(date.trim().replace(/[+-]\d{4}$/, '+0000')) : dateMs(date);
  if (when === undefined || (f.isOn('chat-date-gmt-only') && !/ GMT$/.test(date.trim())) || ((f.isOn('chat-scope-date-gmt-refused') && isScopeRoute(request.url)) || onEvent(f.isOn('chat-event-date-gmt-refused'))) && / GMT$/.test(date.trim())) {
    throw invalidSignature('Date is not an RFC 2822 date');
  }
  const ageUnchecked = f.isOn('chat-date-age-ignored') || (f.isOn('chat-scope-date-age-ignored') && isScopeRoute(request.url))
    || (f.isOn('chat-event-date-age-ignored') && isEditOrComment(request.rawBody));
  if (!ageUnchecked && !ctx.clock.isCurrent(when, DATE_WINDOW_SECONDS * 1000)) throw invalidSignature('Date is too far from the server time');
  // The path as received, without its query string (§5.2); the two path faults bend exactly this step.
  const parts = { md5, contentType, date };
  if (hexEquals(signature, expectedSignature(request, f, secret, parts, request.url))) return;
  // The normalising fault: a signature over the string in another form (case, line ends, order) is taken too.
  if (f.isOn('chat-signing-string-normalised')
    && SIGNING_VARIANTS.some((v) => hexEquals(signature, Buffer.from(variantSignature(secret, { method: request.method, ...parts, path: request.url }, v), 'hex')))) return;
  if ((f.isOn('chat-signature-sha256-accepted') || onEvent(f.isOn('chat-event-sha256-accepted')))
    && hexEquals(signature, createHmac('sha256', hmacKey(secret)).update(signingString({ method: request.method, ...parts, path: request.url })).digest())) return;
  // The method fault matches the signature against every method the chat routes serve: the method is not bound.
  if ((f.isOn('chat-signature-method-unbound') || onEvent(f.isOn('chat-event-method-unbound')))
    && ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].some((method) => hexEquals(signature, createHmac('sha1', hmacKey(secret)).update(signingString({ method, ...parts, path: request.url })).digest()))) return;
  // The content-type fault signs the Content-Type the chat routes expect instead of the header received.
  if ((f.isOn('chat-signature-content-type-assumed') || onEvent(f.isOn('chat-event-content-type-assumed'))) && hexEquals(signature, expectedSignature(request, f, secret, { ...parts, contentType: CHAT_CONTENT_TYPE }, request.url))) return;
  if ((f.isOn('chat-path-not-signed') || onEvent(f.isOn('chat-event-path-unbound'))) && channelPaths(request.url).some((p) => hexEquals(signature, expectedSignature(request, f, secret, parts, p)))) return;
  if (((f.isOn('chat-scope-signature-any-date') && isScopeRoute(request.url)) || onEvent(f.isOn('chat-event-date-unbound'))) && signedAnyDate(ctx, request, secret, parts, signature)) return;
  throw invalidSignature('X-Signature does not match');
}

/**
 * Which chat route a request's path is, as the faults that act on one route tell them apart: connect, disconnect, or a
 * scope route (every other).
 */
export function chatRouteKind(url: string): 'connect' | 'disconnect' | 'scope' {
  const m = /\/(connect|disconnect)$/.exec(url.split('?', 1)[0]!);
  return m ? (m[1] as 'connect' | 'disconnect') : 'scope';
}

function isScopeRoute(url: string): boolean {
  return chatRouteKind(url) === 'scope';
}

/**
 * Only for the `chat-scope-signature-any-date` fault: whether the signature matches the signing string of some Date
 * within the accepted window (each second, in UTC) instead of the Date received: the moment of signing is not bound.
 */
function signedAnyDate(ctx: EmulatorContext, request: FastifyRequest, secret: string, parts: { md5: string; contentType: string; date: string }, signature: string): boolean {
  const now = Math.floor(ctx.clock.nowMs() / 1000);
  for (let s = now - DATE_WINDOW_SECONDS; s <= now + DATE_WINDOW_SECONDS; s += 1) {
    if (hexEquals(signature, expectedSignature(request, ctx.faults, secret, { ...parts, date: rfc2822Date(new Date(s * 1000)) }, request.url))) return true;
  }
  return false;
}

/**
 * Under the `chat-path-not-signed` fault the signature is bound to the channel, not to the path: a signature made
 * for another path of the same channel or scope (another endpoint, the path without its prefix, a trailing slash) passes.
 */
function channelPaths(url: string): string[] {
  const path = url.split('?', 1)[0]!;
  const m = /^\/v2\/origin\/custom\/([^/]+)/.exec(path);
  if (!m) return [];
  const base = `/v2/origin/custom/${m[1]}`;
  const ends = ['', '/connect', '/disconnect', '/chats', '/typing', '/react'];
  return [...ends.map((e) => base + e), path.replace(/^\/v2\/origin\/custom/, ''), path.endsWith('/') ? path.slice(0, -1) : `${path}/`];
}

/** For the event-kind fault: whether a body is an edit_message event or a comment (a new message carrying a post). */
function isEditOrComment(raw: unknown): boolean {
  try {
    const body = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : typeof raw === 'string' ? raw : '') as { event_type?: unknown; payload?: { message?: { post?: unknown } } };
    return body.event_type === 'edit_message' || (typeof body.payload?.message?.post === 'object' && body.payload.message.post !== null);
  } catch {
    return false;
  }
}
