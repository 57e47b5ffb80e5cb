/**
 * HTTP behaviour of the chat scope that is the same on every route: which methods a path shape serves (405 with
 * Allow rather than a misleading 404), the body size limit (413, decided after the whole body was read so that the
 * client is never reset while still sending), and how body bytes become text (UTF-8). The HTTP-robustness faults of
 * the chat interface live here too, so that the routes only ask.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyRequest } from 'fastify';
import type { FaultSwitches } from '../faults.js';

/** Where the chat interface is served, below `{chat_url}` (§4.3). */
export const CHAT_PREFIX = '/v2/origin/custom';

/** The largest chat body the emulator takes; the live service's limit is not stated, 1 MB is the server's default. */
export const CHAT_BODY_LIMIT = 1024 * 1024;
/** What the parser reads at most before giving up (it reads the whole body to answer 413 cleanly). */
export const CHAT_READ_LIMIT = 32 * 1024 * 1024;

/** The path shapes of §4.3 under the prefix (a `*` segment is an id) and the one method each serves. */
const SHAPES: readonly { readonly segments: readonly string[]; readonly method: string }[] = [
  { segments: ['*', 'connect'], method: 'POST' },
  { segments: ['*', 'disconnect'], method: 'DELETE' },
  { segments: ['*', 'chats'], method: 'POST' },
  { segments: ['*'], method: 'POST' },
  { segments: ['*', '*', 'delivery_status'], method: 'POST' },
  { segments: ['*', 'chats', '*', 'history'], method: 'GET' },
  { segments: ['*', 'typing'], method: 'POST' },
  { segments: ['*', 'react'], method: 'POST' },
];

/**
 * The methods served on `path` (below the chat prefix, query included or not), empty when no endpoint has its shape.
 * A GET endpoint also serves HEAD (RFC 9110 §9.3.2).
 */
export function allowedMethods(path: string): string[] {
  const segments = path.split('?', 1)[0]!.split('/').filter((s) => s !== '');
  const methods = SHAPES
    .filter((s) => s.segments.length === segments.length && s.segments.every((x, i) => x === '*' || x === segments[i]))
    .map((s) => s.method);
  return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
}

export class ChatBodyTooLarge extends Error {
  readonly statusCode = 413;
  readonly code = 'FST_ERR_CTP_BODY_TOO_LARGE';
  constructor(readonly bytes: number) {
    super(`the chat body of ${bytes} bytes is over the limit of ${CHAT_BODY_LIMIT}`);
  }
}

/**
 * The body's size is within the limit, or ChatBodyTooLarge; the `chat-large-bodies-accepted` variation lifts the limit,
 * the `chat-crash-on-large-body` fault turns the refusal into a crash.
 */
export function checkBodySize(body: Buffer, faults: FaultSwitches, variations?: { isOn(name: 'chat-large-bodies-accepted'): boolean }): void {
  if (body.length <= CHAT_BODY_LIMIT || variations?.isOn('chat-large-bodies-accepted')) return;
  if (faults.isOn('chat-crash-on-large-body')) throw new Error(`out of memory reading ${body.length} bytes`);
  throw new ChatBodyTooLarge(body.length);
}

/** The body's text: UTF-8 (§5.2 signs the UTF-8 bytes); `chat-text-latin1` reads each byte as one character. */
export function bodyText(raw: Buffer, faults: FaultSwitches): string {
  if (faults.isOn('chat-crash-on-invalid-utf8') && !isUtf8(raw)) throw new Error('simulated crash on bytes that are not UTF-8');
  return raw.toString(faults.isOn('chat-text-latin1') ? 'latin1' : 'utf8');
}

/** A body that does not parse: a 400 normally, a crash under `chat-malformed-json-crash`. */
export function crashOnMalformed(faults: FaultSwitches): void {
  if (faults.isOn('chat-malformed-json-crash')) throw new Error('simulated crash on a malformed chat body');
}

/** `chat-crash-on-odd-input`: a JSON body that is not an object, or a history offset or limit that is not digits, crashes. */
export function crashOnOddInput(faults: FaultSwitches, body: unknown, query?: Record<string, unknown>): void {
  if (!faults.isOn('chat-crash-on-odd-input')) return;
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) throw new Error('simulated crash on a body that is not an object');
  for (const key of ['offset', 'limit']) {
    const v = query?.[key];
    if (v !== undefined && !(typeof v === 'string' && /^\d*$/.test(v))) throw new Error(`simulated crash on history ${key}`);
  }
}

/** The path below the chat prefix of a request. */
export function pathBelow(request: FastifyRequest, prefix: string): string {
  return request.url.slice(prefix.length);
}
