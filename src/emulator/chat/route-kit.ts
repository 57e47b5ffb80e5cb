/**
 * What every chat endpoint does the same way: the three gates (the signature, §5.2, 403; validation, 400 with every
 * bad field named; existence, 404), reading the body as JSON only after the signature holds, the connection a scope_id
 * names, and the JSON answers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context.js';
import type { FaultSwitches } from '../faults.js';
import type { VariationSwitches } from '../variations.js';
import { ChatError, invalidRequest, notFound } from './errors.js';
import { bodyText, crashOnMalformed, crashOnOddInput } from './http.js';
import { chatRouteKind, verifySignature } from './signature.js';
import { chatState, type ChannelRecord, type ChatState, type Connection } from './state.js';
import { isObj, Validator, type Obj } from './validate.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

interface Gate<T> {
  readonly channel: ChannelRecord | undefined;
  /** Validates the parsed body (undefined when there is none) and the query; errors go to `c`. */
  readonly validate: (c: Validator, body: unknown) => T;
  /** Only for the faults of one route that skip the signature check for some requests: given the body, whether to skip it. */
  readonly skipSignature?: (body: unknown) => boolean;
}

/** Signature, then validation, then the caller's existence checks. */
export function gate<T>(ctx: EmulatorContext, request: FastifyRequest, g: Gate<T>): T {
  if (!g.channel) throw notFound('CHANNEL_NOT_FOUND', 'channel does not exist');
  const validateFirst = ctx.variations.isOn('chat-validates-before-signature');
  if (!validateFirst) {
    try {
      signatureGate(ctx, () => verifyAnyOf(ctx, request, g.channel!.secret));
    } catch (err) {
      if (!g.skipSignature?.(peekJson(request))) throw err;
    }
  }
  const c = new Validator(ctx.faults, ctx.variations);
  const value = g.validate(c, readJson(ctx.faults, request, ctx.variations));
  if (c.errors.length > 0) throw invalidRequest(c.errors);
  if (validateFirst) verifySignature(ctx, request, g.channel.secret);
  return value;
}

/** A wrong signature is a 403; under `chat-signature-error-crash` the error escapes unmapped, as a 500. */
function signatureGate(ctx: EmulatorContext, verify: () => void): void {
  try {
    verify();
  } catch (err) {
    if (ctx.faults.isOn('chat-signature-error-crash') && err instanceof ChatError) throw new Error(`simulated crash in the signature check: ${err.description}`);
    throw err;
  }
}

/**
 * The channel's own secret; under `chat-signature-any-channel-secret` (and its one-place forms, the scope routes or
 * disconnect), any registered channel's secret passes too.
 */
function verifyAnyOf(ctx: EmulatorContext, request: FastifyRequest, secret: string): void {
  try {
    verifySignature(ctx, request, secret);
  } catch (err) {
    if (!anyChannelSecret(ctx, request.url)) throw err;
    for (const other of chatState(ctx).channels.values()) {
      try {
        verifySignature(ctx, request, other.secret);
        return;
      } catch { /* try the next channel */ }
    }
    throw err;
  }
}

function anyChannelSecret(ctx: EmulatorContext, url: string): boolean {
  const f = ctx.faults;
  if (f.isOn('chat-signature-any-channel-secret')) return true;
  const kind = chatRouteKind(url);
  if (kind === 'disconnect') return f.isOn('chat-disconnect-any-channel-secret');
  return kind === 'scope' && f.isOn('chat-scope-any-channel-secret');
}

/** The body as JSON without a word to the client (undefined when it does not parse), for `skipSignature`. */
function peekJson(request: FastifyRequest): unknown {
  try {
    return JSON.parse(request.rawBody?.toString('utf8') ?? '');
  } catch {
    return undefined;
  }
}

function readJson(faults: FaultSwitches, request: FastifyRequest, variations: VariationSwitches): unknown {
  const raw = request.rawBody;
  if (!raw || raw.length === 0) {
    if (request.method !== 'GET' && faults.isOn('chat-crash-on-missing-body')) throw new Error('simulated crash: the empty body is parsed as JSON');
    return undefined;
  }
  const text = bodyText(raw, faults);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    crashOnMalformed(faults);
    throw invalidRequest([{ field: 'body', message: 'is not valid JSON' }]);
  }
  crashOnOddInput(faults, body);
  return variations.isOn('chat-text-nfc') ? nfc(body) : body;
}

/** Only for the `chat-text-nfc` variation: every string of the body in Unicode normalisation form C, as stored. */
function nfc(value: unknown): unknown {
  if (typeof value === 'string') return value.normalize('NFC');
  if (Array.isArray(value)) return value.map(nfc);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nfc(v)]));
  return value;
}

export function objectOf(c: Validator, body: unknown): Obj {
  if (isObj(body)) return body;
  c.add('body', 'must be a JSON object');
  return {};
}

export function connected(state: ChatState, scopeId: string): Connection {
  const conn = state.connections.get(scopeId);
  if (!conn && state.faultOn('chat-crash-on-unknown-scope')) throw new Error('simulated crash: the connection of a scope_id never handed out is read');
  if (!conn || !state.isConnected(conn)) {
    if (conn && state.faultOn('chat-disconnected-scope-crash')) throw new Error('simulated crash: the disconnected connection is read');
    // The variation: a scope that is not connected is data the service does not take (400), not a missing resource.
    if (conn && state.variationOn('chat-disconnected-scope-400')) throw invalidRequest([{ field: 'scope_id', message: 'the channel is not connected to an account under this scope_id' }]);
    throw notFound('SCOPE_NOT_FOUND', 'the channel is not connected to an account under this scope_id');
  }
  return conn;
}

export const json = (reply: FastifyReply, body: unknown): FastifyReply => reply.code(200).header('content-type', JSON_TYPE).send(JSON.stringify(body));
export const emptyOk = (reply: FastifyReply): FastifyReply => reply.code(200).header('content-type', JSON_TYPE).send('');

export type P = { Params: Record<string, string> };

/** One endpoint of §4.3 (endpoints/), registered on the chat scope by ./routes.ts. */
export type ChatEndpoint = (app: FastifyInstance, ctx: EmulatorContext, state: ChatState) => void;
