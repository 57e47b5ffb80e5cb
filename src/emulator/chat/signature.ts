/**
 * Verifies the §5.2 signature of one chat request, before anything else looks at it. The MD5 is computed over the
 * raw bytes received (kept by the chat scope's body parser), the signing string is rebuilt with the shared
 * `signingString` of src/protocol/chat-signature.ts, and the HMAC is compared in constant time.
 * `Date` is RFC 2822 with a numeric zone or GMT, within 15 minutes of the emulator clock (docs/field-notes.md).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { contentMd5, parseRfc2822, signingString } from '../../protocol/chat-signature.js';
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

function hexEqual(a: string, b: string): boolean {
  if (a.length !== b.length || !HEX.test(a) || !HEX.test(b) || a.length % 2 !== 0) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

export function verifySignature(ctx: EmulatorContext, request: FastifyRequest, secret: string): void {
  const f = ctx.faults;
  if (f.isOn('chat-signature-not-checked')) return;
  if (f.isOn('chat-extra-header-refused')) {
    const extra = Object.keys(request.headers).find((h) => h.startsWith('x-') && !KNOWN_X_HEADERS.has(h));
    if (extra) throw invalidSignature('unexpected header');
  }
  if (f.isOn('chat-signature-connect-only') && !request.url.split('?', 1)[0]!.endsWith('/connect')) return;
  const contentType = header(request, 'content-type');
  const date = header(request, 'date');
  const md5 = header(request, 'content-md5') ?? (f.isOn('chat-md5-header-optional') ? contentMd5(request.rawBody ?? undefined) : undefined);
  const signature = header(request, 'x-signature');
  if (signature === undefined && f.isOn('chat-signature-header-optional')) return;
  if (contentType === undefined || date === undefined || md5 === undefined || signature === undefined) {
    throw invalidSignature('Content-Type, Date, Content-MD5 and X-Signature are required');
  }
  const md5Unchecked = f.isOn('chat-md5-not-compared') || (request.method === 'GET' && f.isOn('chat-get-md5-not-checked'));
  if (!md5Unchecked && !hexEqual(md5, contentMd5(request.rawBody ?? undefined))) {
    throw invalidSignature('Content-MD5 does not match the body');
  }
  const when = parseRfc2822(date);
  if (when === undefined || (f.isOn('chat-date-gmt-only') && !/ GMT$/.test(date.trim()))) throw invalidSignature('Date is not an RFC 2822 date');
  if (Math.abs(when - ctx.clock.nowMs()) > DATE_WINDOW_SECONDS * 1000) throw invalidSignature('Date is too far from the server time');
  // The path as received, without its query string (§5.2); the two path faults bend exactly this step.
  const expected = (path: string): string => {
    const signed = signingString({ method: request.method, md5, contentType, date, path });
    return createHmac('sha1', secret).update(f.isOn('chat-query-signed') ? signed.slice(0, signed.lastIndexOf('\n') + 1) + path : signed).digest('hex');
  };
  if (hexEqual(signature, expected(request.url))) return;
  if (f.isOn('chat-signature-sha256-accepted')
    && hexEqual(signature, createHmac('sha256', secret).update(signingString({ method: request.method, md5, contentType, date, path: request.url })).digest('hex'))) return;
  if (f.isOn('chat-path-not-signed') && channelPaths(request.url).some((p) => hexEqual(signature, expected(p)))) return;
  throw invalidSignature('X-Signature does not match');
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
