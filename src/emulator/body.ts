/**
 * Request body parsing for the whole server. JSON and form-encoded bodies become values; any other or missing
 * content type becomes an `UnsupportedBody` marker instead of a framework 415, so each route decides the status
 * the spec gives it (the token endpoint answers 400). The raw bytes are kept on the request because the chat
 * interface (§5.2) signs the MD5 of the exact body.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import qs from 'qs';
import type { FaultSwitches } from './faults.js';
import { deepFreeze } from './deep-freeze.js';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody: Buffer | null;
  }
}

export class UnsupportedBody {
  constructor(readonly contentType: string | undefined) {}
}

/** qs options for form bodies and the query string: PHP-style brackets, bounded so hostile input stays cheap. */
export const QS_OPTIONS = { depth: 5, arrayLimit: 100, parameterLimit: 1000 } as const;

/**
 * The query string as the live service (PHP) reads it: a repeated key keeps its last value, while a key ending in
 * `[]` appends. Public clients rebuild the next page's query from the original parameters plus the ones of
 * `_links.next`, so `filter[pipeline_id][0]` arrives twice; merging both into an array would refuse the filter.
 * Form bodies keep qs's default (a repeated parameter becomes an array the token endpoint refuses, RFC 6749 §3.2).
 */
export const QUERY_OPTIONS = { ...QS_OPTIONS, duplicates: 'last' } as const;

export function parseQuery(query: string): Record<string, unknown> {
  return qs.parse(query, QUERY_OPTIONS);
}

/**
 * The query string of an OAuth request, where a repeated parameter stays an array for the route to refuse
 * (RFC 6749 §3.1: parameters MUST NOT be included more than once).
 */
export function parseOAuthQuery(url: string): Record<string, unknown> {
  const at = url.indexOf('?');
  return at < 0 ? {} : qs.parse(url.slice(at + 1), QS_OPTIONS);
}

/** Queries remembered by the query-string parser, and the longest one remembered. */
const QUERY_CACHE_SIZE = 512;
const QUERY_CACHE_MAX_LENGTH = 4096;

/**
 * The server's query-string parser: qs with QUERY_OPTIONS, remembering the last few hundred queries it parsed. Clients
 * repeat queries (a page and the next, the same filter again), and bracket parsing is a large share of a list
 * request. A remembered result is shared by every request that sends the same query, so it is frozen: handlers
 * read the query, never change it.
 */
export function cachedQueryParser(): (raw: string) => Record<string, unknown> {
  const cache = new Map<string, Record<string, unknown>>();
  return (raw) => {
    const known = cache.get(raw);
    if (known) return known;
    const parsed = deepFreeze(qs.parse(raw, QUERY_OPTIONS) as Record<string, unknown>);
    if (raw.length <= QUERY_CACHE_MAX_LENGTH) {
      // First in, first out: cheaper than keeping recency, and a repeated query is back in after one miss.
      if (cache.size >= QUERY_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(raw, parsed);
    }
    return parsed;
  };
}

/** The largest body the emulator takes outside the chat scope; the live service's limit is not stated, 1 MB is the server's default. */
export const BODY_LIMIT = 1024 * 1024;
/**
 * What a parser reads before giving up. A body over BODY_LIMIT is read whole and then refused with 413: a server may
 * close to stop a large body (RFC 9110 §15.5.14), but a client still writing then gets EPIPE instead of the answer
 * (issue 28 §8), so the reference emulator answers only once it has the body.
 */
export const READ_LIMIT = 32 * 1024 * 1024;

class BodyParseError extends Error {
  constructor(readonly statusCode: number, readonly code: string, message: string) {
    super(message);
  }
}

export function installBodyParsers(app: FastifyInstance, faults: FaultSwitches): void {
  app.decorateRequest('rawBody', null);
  app.removeAllContentTypeParsers();

  // The one place a malformed body is detected, hence the one place the crash fault lives.
  const malformed = (code: string, message: string): BodyParseError =>
    faults.isOn('crash-on-malformed-body')
      ? new BodyParseError(500, 'EMULATOR_FAULT_CRASH', 'simulated crash on a malformed body')
      : new BodyParseError(400, code, message);

  const tooLarge = (body: Buffer): BodyParseError | undefined =>
    body.length > BODY_LIMIT ? new BodyParseError(413, 'FST_ERR_CTP_BODY_TOO_LARGE', `the body of ${body.length} bytes is over the limit of ${BODY_LIMIT}`) : undefined;
  const read = { parseAs: 'buffer', bodyLimit: READ_LIMIT } as const;

  app.addContentTypeParser('application/json', read, (request: FastifyRequest, body: Buffer, done) => {
    request.rawBody = body;
    const over = tooLarge(body);
    if (over) return done(over, undefined);
    // An empty body is no body (clients often send the header on bodiless POSTs); routes that need one refuse it.
    if (body.length === 0) return done(null, undefined);
    if (faults.isOn('crash-on-invalid-utf8') && !isUtf8(body)) return done(new BodyParseError(500, 'EMULATOR_FAULT_CRASH', 'simulated crash on bytes that are not UTF-8'), undefined);
    try {
      done(null, JSON.parse(body.toString('utf8')));
    } catch {
      done(malformed('FST_ERR_CTP_INVALID_JSON_BODY', 'invalid JSON body'), undefined);
    }
  });

  app.addContentTypeParser('application/x-www-form-urlencoded', read, (request: FastifyRequest, body: Buffer, done) => {
    request.rawBody = body;
    const over = tooLarge(body);
    if (over) return done(over, undefined);
    try {
      done(null, qs.parse(body.toString('utf8'), QS_OPTIONS));
    } catch {
      done(malformed('FST_ERR_CTP_INVALID_FORM_BODY', 'invalid form body'), undefined);
    }
  });

  app.addContentTypeParser('*', read, (request: FastifyRequest, body: Buffer, done) => {
    request.rawBody = body;
    const over = tooLarge(body);
    if (over) return done(over, undefined);
    done(null, new UnsupportedBody(request.headers['content-type']));
  });
}

/** The parsed body if it is a plain JSON object (not an array, not null, not a marker). */
export function objectBody(body: unknown): Record<string, unknown> | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof UnsupportedBody) return undefined;
  return body as Record<string, unknown>;
}

/** Which of the two accepted encodings the request used, from its header rather than from the parsed value. */
export function bodyEncoding(request: FastifyRequest): 'json' | 'form' | 'other' {
  const ct = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (ct === 'application/json') return 'json';
  if (ct === 'application/x-www-form-urlencoded') return 'form';
  return 'other';
}
