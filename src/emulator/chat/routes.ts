/**
 * The chat channel interface (§4.3) at `{chat_url}/v2/origin/custom/...`. Every request goes through the same
 * three gates in this order: the signature (§5.2, 403), validation (400 with every bad field named), existence
 * (404). Bodies are kept as raw bytes by this scope's own parser so that Content-MD5 is checked against exactly
 * what was received, and JSON is parsed only after the signature holds. Messages are processed synchronously:
 * a message is in the history as soon as the 200 is sent.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext, RouteOptions } from '../context.js';
import { toProblem } from '../errors.js';
import type { FaultSwitches } from '../faults.js';
import type { VariationSwitches } from '../variations.js';
import { ChatError, invalidRequest, notFound, sendChatError } from './errors.js';
import { allowedMethods, bodyText, CHAT_READ_LIMIT, checkBodySize, crashOnMalformed, crashOnOddInput, pathBelow } from './http.js';
import { verifySignature } from './signature.js';
import { chatState, historyPage, insertInOrder, scopeIdOf, type ChannelRecord, type Chat, type ChatState, type Connection, type Person, type StoredMessage } from './state.js';
import {
  Validator, deliveryStatus, embedded, HISTORY_LIMIT_MAX, isObj, MAX_FORWARDS, message, participant, source, type EmbeddedIn, type Obj,
} from './validate.js';
import { storedQuote, storedSharedPost } from './stored.js';
import { checkReplyWindow, clientWrote } from './time-window.js';
import { raceWindow } from '../race-window.js';
import { overlapped } from './overlap.js';
import { hookRecord } from './outgoing-hook.js';

export const CHAT_PREFIX = '/v2/origin/custom';


const JSON_TYPE = 'application/json; charset=utf-8';

export async function chatRoutes(app: FastifyInstance, { ctx }: RouteOptions): Promise<void> {
  const state = chatState(ctx);
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: CHAT_READ_LIMIT }, (request: FastifyRequest, body: Buffer, done) => {
      request.rawBody = body;
      try {
        checkBodySize(body, ctx.faults, ctx.variations);
      } catch (err) {
        return done(err as Error, undefined);
      }
      done(null, undefined);
    });
    scope.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
      if (err instanceof ChatError) return sendChatError(reply, err, ctx.faults);
      const p = toProblem(err);
      if (p.status >= 500) {
        request.log.error({ err }, 'unhandled emulator error');
        return reply.code(500).header('content-type', JSON_TYPE).send(JSON.stringify({ status: 0, error_code: 500, error_type: 'INTERNAL_ERROR', error_description: 'internal error' }));
      }
      if (p.status === 413) return sendChatError(reply, new ChatError(413, 'REQUEST_TOO_LARGE', p.detail), ctx.faults);
      return sendChatError(reply, new ChatError(p.status === 404 ? 404 : 400, 'BAD_REQUEST', p.detail), ctx.faults);
    });
    registerEndpoints(scope, ctx, state);
  }, { prefix: CHAT_PREFIX });
}

interface Gate<T> {
  readonly channel: ChannelRecord | undefined;
  /** Validates the parsed body (undefined when there is none) and the query; errors go to `c`. */
  readonly validate: (c: Validator, body: unknown) => T;
}

/** Signature, then validation, then the caller's existence checks. */
function gate<T>(ctx: EmulatorContext, request: FastifyRequest, g: Gate<T>): T {
  if (!g.channel) throw notFound('CHANNEL_NOT_FOUND', 'channel does not exist');
  const validateFirst = ctx.variations.isOn('chat-validates-before-signature');
  if (!validateFirst) signatureGate(ctx, () => verifyAnyOf(ctx, request, g.channel!.secret));
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

/** The channel's own secret; under `chat-signature-any-channel-secret`, any registered channel's secret passes too. */
function verifyAnyOf(ctx: EmulatorContext, request: FastifyRequest, secret: string): void {
  try {
    verifySignature(ctx, request, secret);
  } catch (err) {
    if (!ctx.faults.isOn('chat-signature-any-channel-secret')) throw err;
    for (const other of chatState(ctx).channels.values()) {
      try {
        verifySignature(ctx, request, other.secret);
        return;
      } catch { /* try the next channel */ }
    }
    throw err;
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

function objectOf(c: Validator, body: unknown): Obj {
  if (isObj(body)) return body;
  c.add('body', 'must be a JSON object');
  return {};
}

function connected(state: ChatState, scopeId: string): Connection {
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

const json = (reply: FastifyReply, body: unknown): FastifyReply => reply.code(200).header('content-type', JSON_TYPE).send(JSON.stringify(body));
const emptyOk = (reply: FastifyReply): FastifyReply => reply.code(200).header('content-type', JSON_TYPE).send('');

type P = { Params: Record<string, string> };

function registerEndpoints(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  const f = ctx.faults;
  const va = ctx.variations;

  // Connect channel
  app.post<P>('/:channelId/connect', async (request, reply) => {
    const channel = state.channels.get(request.params.channelId!);
    const v = gate(ctx, request, {
      channel,
      validate: (c, raw) => {
        const body = objectOf(c, raw);
        if (f.isOn('chat-connect-unvalidated')) return { accountId: String(body.account_id ?? ''), title: typeof body.title === 'string' ? body.title : undefined, hook: body.hook_api_version === 'v2' ? 'v2' as const : 'v1' as const, tw: body.is_time_window_disabled === true };
        const accountId = c.str(body, 'account_id', '', { required: true, nonEmpty: true });
        if (body.hook_api_version === undefined && f.isOn('chat-crash-on-connect-without-hook-version')) throw new Error('simulated crash: the hook address of an undefined version is read');
        const hook = c.oneOf(body, 'hook_api_version', '', ['v1', 'v2'] as const);
        const title = c.str(body, 'title', '', { required: f.isOn('chat-connect-requires-title') });
        const tw = c.bool(body, 'is_time_window_disabled', '');
        const anyAccount = f.isOn('chat-connect-any-account');
        if (accountId !== undefined && accountId !== '' && !state.accounts.has(accountId) && !anyAccount) c.add('account_id', 'is not an account of the chat interface');
        // §2.4: the hook address for the chosen version must be set in the channel settings.
        if (hook !== undefined && channel?.hookVersions && !channel.hookVersions.includes(hook)) c.add('hook_api_version', `the channel has no hook address for ${hook}`);
        return { accountId: accountId ?? '', title, hook, tw: tw ?? f.isOn('chat-time-window-default-true') };
      },
    });
    if (f.isOn('chat-connect-any-account') && !state.accounts.has(v.accountId)) state.accounts.set(v.accountId, { accountId: -1, amojoId: v.accountId, userIds: [] });
    const account = state.accounts.get(v.accountId);
    if (!account) throw invalidRequest([{ field: 'account_id', message: 'is not an account of the chat interface' }]);
    const title = f.isOn('chat-connect-title-ignored') ? undefined : v.title ?? (f.isOn('chat-title-default-channel-id') ? channel!.id : undefined);
    const opts = { ...(title !== undefined && { title }), ...(v.hook !== undefined && { hookApiVersion: v.hook }), isTimeWindowDisabled: v.tw };
    const usual = scopeIdOf(channel!, account);
    const before = state.connections.get(usual);
    if (before && !state.isConnected(before) && f.isOn('chat-reconnect-refused')) throw invalidRequest([{ field: 'account_id', message: 'the channel was disconnected in this account' }]);
    // The race fault: a connect that overlapped another of the same account found no connection and made its own.
    const raced = f.isOn('chat-connect-race') && await overlapped(ctx, `connect ${usual}`);
    const conn = state.connect(channel!, account, opts, raced ? `${usual}-${randomUUID().slice(0, 8)}` : usual);
    const body: Record<string, unknown> = { account_id: account.amojoId, scope_id: conn.scopeId, title: conn.title, hook_api_version: conn.hookApiVersion, is_time_window_disabled: conn.isTimeWindowDisabled };
    if (f.isOn('chat-connect-no-scope-id')) delete body.scope_id;
    if (f.isOn('chat-connect-answers-defaults')) Object.assign(body, { hook_api_version: 'v1', is_time_window_disabled: false });
    if (ctx.variations.isOn('chat-connect-echo-minimal')) for (const k of ['title', 'hook_api_version', 'is_time_window_disabled']) delete body[k];
    return json(reply, body);
  });

  // Disconnect channel
  app.delete<P>('/:channelId/disconnect', async (request, reply) => {
    const channel = state.channels.get(request.params.channelId!);
    const accountId = gate(ctx, request, {
      channel,
      validate: (c, raw) => {
        const body = objectOf(c, raw);
        if (f.isOn('chat-disconnect-unvalidated') && typeof body.account_id !== 'string') return '';
        return c.str(body, 'account_id', '', { required: true }) ?? '';
      },
    });
    if (accountId === '' && f.isOn('chat-disconnect-unvalidated')) return emptyOk(reply);
    const conn = state.connections.get(`${channel!.id}_${accountId}`);
    if (!state.accounts.has(accountId)) throw invalidRequest([{ field: 'account_id', message: 'is not an account of the chat interface' }]);
    if (!conn && f.isOn('chat-crash-on-disconnect-never-connected')) throw new Error('simulated crash: the connection of an account never connected is read');
    if ((!conn || !state.isConnected(conn)) && va.isOn('chat-repeat-refused')) throw invalidRequest([{ field: 'account_id', message: 'the channel is not connected in this account' }]);
    if (conn && !state.isConnected(conn) && f.isOn('chat-crash-on-second-disconnect')) throw new Error('simulated crash: a connection already disconnected is disconnected again');
    if (conn && !f.isOn('chat-disconnect-noop')) conn.connected = false;
    if (f.isOn('chat-disconnect-whole-channel')) for (const other of state.connections.values()) if (other.channel === channel) other.connected = false;
    if (f.isOn('chat-disconnect-answers-body')) return json(reply, { account_id: accountId, disconnected: true });
    if (f.isOn('chat-disconnect-answers-400')) throw invalidRequest([{ field: 'account_id', message: 'disconnect failed' }]);
    return emptyOk(reply);
  });

  // Create chat
  app.post<P>('/:scopeId/chats', async (request, reply) => {
    const scopeId = request.params.scopeId!;
    const v = gate(ctx, request, {
      channel: state.channelOfScope(scopeId),
      validate: (c, raw) => {
        const body = objectOf(c, raw);
        const madeUp = va.isOn('chat-create-conversation-id-optional') && (typeof body.conversation_id !== 'string' || body.conversation_id === '');
        const conversationId = madeUp ? `made-up-${randomUUID()}` : c.str(body, 'conversation_id', '', { required: true, nonEmpty: true });
        // The unchecked-source fault reads external_id through a validator whose errors are thrown away.
        const externalId = source(f.isOn('chat-create-source-unchecked') ? new Validator(f) : c, body, '');
        const user = participant(c, body, 'user', '', { required: true });
        return { conversationId: conversationId ?? '', externalId, user };
      },
    });
    const conn = connected(state, scopeId);
    // Only for the `chat-keyed-by-user` fault: the chat is looked up by its user, not by conversation_id.
    let chat = f.isOn('chat-keyed-by-user')
      ? [...state.chatsById.values()].find((c) => c.scopeId === conn.scopeId && c.user.clientId === v.user?.id)
      : state.chatOf(conn, v.conversationId);
    if (chat && f.isOn('chat-crash-on-second-create-chat')) throw new Error('simulated crash: duplicate key on the chat\'s conversation_id');
    if (!chat || f.isOn('chat-create-not-idempotent')) {
      if (f.isOn('chat-create-race')) await raceWindow(ctx).hold(`chat ${scopeId} ${v.conversationId}`);
      chat = state.newChat(conn, v.conversationId, state.client(conn, v.user!), v.externalId);
    } else if (v.user) state.client(conn, v.user);
    const user = personView(chat.user, f.isOn('chat-create-user-no-client-id') ? 'drop-client-id' : 'as-is', lookOf(ctx));
    if (f.isOn('chat-create-user-id-empty')) user.id = '';
    if (f.isOn('chat-create-user-id-per-call')) user.id = randomUUID();
    if (f.isOn('chat-create-avatar-dropped')) user.avatar = '';
    return json(reply, { id: chat.id, user });
  });

  // Send, edit or import a message; send a comment
  app.post<P>('/:scopeId', async (request, reply) => {
    const scopeId = request.params.scopeId!;
    if (f.isOn('chat-crash-on-odd-payload')) {
      const raw = readJsonLoose(request);
      if (isObj(raw) && isObj(raw.payload) && raw.payload.message !== undefined && !isObj(raw.payload.message)) throw new Error('simulated crash on an odd payload');
    }
    const channel = state.channelOfScope(scopeId);
    const conn0 = state.connections.get(scopeId);
    const v = gate(ctx, request, { channel, validate: (c, raw) => ignoredOnEditRefused(c, validateMessageEvent(c, raw, conn0, channel)) });
    const conn = connected(state, scopeId);
    const body = v.event === 'edit_message' ? await editMessage(ctx, state, conn, v) : await newMessage(ctx, state, conn, v);
    if (v.event === 'edit_message' && va.isOn('chat-edit-answer-empty')) return emptyOk(reply);
    const nm = body.new_message;
    if (va.isOn('chat-new-message-answer-without-ids')) { delete nm.conversation_id; delete nm.ref_id; }
    if (va.isOn('chat-receiver-id-omitted') && nm.receiver_id === null) delete nm.receiver_id;
    return json(reply, f.isOn('chat-message-response-flat') ? nm : body);
  });

  // Update delivery status
  app.post<P>('/:scopeId/:msgid/delivery_status', async (request, reply) => {
    const scopeId = request.params.scopeId!;
    const status = gate(ctx, request, { channel: state.channelOfScope(scopeId), validate: (c, raw) => deliveryStatus(c, coercedStatus(ctx.variations, objectOf(c, raw)), '', { alias: true }) });
    const conn = connected(state, scopeId);
    const found = state.message(conn, request.params.msgid!);
    const m = f.isOn('chat-delivery-status-msgid-only') && found?.clientId !== request.params.msgid ? undefined : found;
    if (!m && f.isOn('chat-crash-on-unknown-status-msgid')) throw new Error('simulated crash: the status of a message that is not there is written');
    if (!m) throw notFound('MESSAGE_NOT_FOUND', 'message does not exist');
    if (status && m.status?.code === status.code && ctx.variations.isOn('chat-repeat-refused')) throw invalidRequest([{ field: 'status_code', message: `the message is already ${status.code}` }]);
    if (status && m.status?.code === status.code && f.isOn('chat-crash-on-repeated-delivery-status')) throw new Error('simulated crash: duplicate key on the message\'s status');
    if (status?.code === -1 && status.error === undefined && f.isOn('chat-error-text-missing-crash')) throw new Error('simulated crash: the error text of a -1 status is stored unchecked');
    if (status && m.status && ctx.variations.isOn('chat-delivery-status-forward-only') && statusRank(status.code) < statusRank(m.status.code)) {
      throw invalidRequest([{ field: 'status_code', message: `the message is already ${m.status.code}; a delivery status does not go back` }]);
    }
    const applied = status && f.isOn('chat-delivery-status-read-as-delivered') && status.code === 2 ? { code: 1 } : status;
    const stored = applied && f.isOn('chat-delivery-status-error-dropped') ? { code: applied.code } : applied;
    const onto = f.isOn('chat-delivery-status-on-latest') ? m.chat.messages.at(-1) ?? m : m;
    if (stored && !(onto.status && f.isOn('chat-delivery-status-first-only'))) onto.status = stored;
    return emptyOk(reply);
  });

  // Get chat history
  app.get<P & { Querystring: Record<string, unknown> }>('/:scopeId/chats/:conversationId/history', async (request, reply) => {
    const scopeId = request.params.scopeId!;
    const q = gate(ctx, request, {
      channel: state.channelOfScope(scopeId),
      validate: (c) => {
        const query = (request.query ?? {}) as Record<string, unknown>;
        crashOnOddInput(f, undefined, query);
        const read = va.isOn('chat-history-query-clamped') ? lenientInt : queryInt;
        if (query.offset === undefined && f.isOn('chat-crash-on-history-without-offset')) throw new Error('simulated crash: the missing offset is used as a number');
        const offset = read(c, query, 'offset', 0) ?? 0;
        const given = read(c, query, 'limit', 1);
        const limit = given ?? (f.isOn('chat-history-no-default-limit') ? Number.MAX_SAFE_INTEGER : HISTORY_LIMIT_MAX);
        if (given !== undefined && limit > HISTORY_LIMIT_MAX && !f.isOn('chat-history-limit-unenforced')) {
          if (va.isOn('chat-history-limit-over-max-422')) throw new ChatError(422, 'UNPROCESSABLE', `limit must be at most ${HISTORY_LIMIT_MAX}`);
          c.add('limit', `must be at most ${HISTORY_LIMIT_MAX}`);
        }
        return { offset, limit };
      },
    });
    if (!state.connections.has(scopeId) && ctx.variations.isOn('chat-history-unknown-scope-204')) return reply.code(204).send();
    const conn = connected(state, scopeId);
    const chat = state.chatByEitherId(conn, request.params.conversationId!);
    if (!chat && f.isOn('chat-crash-on-history-unknown-conversation')) throw new Error('simulated crash: the messages of a chat that is not there are read');
    if (!chat && f.isOn('chat-history-missing-404')) throw notFound('CHAT_NOT_FOUND', 'chat does not exist');
    if (chat && chat.messages.length === 0 && f.isOn('chat-history-empty-chat-404')) throw notFound('CHAT_NOT_FOUND', 'chat has no messages');
    const offset = f.isOn('chat-history-offset-off-by-one') && q.offset > 0 ? q.offset + 1 : q.offset;
    const listed = chat ? historySource(state, chat, f) : [];
    const page = f.isOn('chat-history-offset-from-oldest') ? historyPage(listed.slice(offset), 0, q.limit) : historyPage(listed, offset, q.limit);
    if (page.length === 0) return va.isOn('chat-history-empty-as-200') ? json(reply, { messages: [] }) : reply.code(204).send();
    const items = page.map((m) => historyItem(m, f.isOn('chat-kinds-confused'), f.isOn('chat-history-drops-file-fields'), lookOf(ctx)));
    page.forEach((m, i) => misshown(items[i]!, m, conn, f, lookOf(ctx)));
    if (va.isOn('chat-history-empty-values-omitted')) for (const item of items) omitEmpty(item);
    if (va.isOn('chat-history-receive-time')) {
      page.forEach((m, i) => { if (m.receivedMs !== undefined) Object.assign(items[i]!, { timestamp: Math.floor(m.receivedMs / 1000), msec_timestamp: m.receivedMs }); });
    }
    if (f.isOn('chat-history-timestamp-ms')) for (const item of items) item.timestamp = item.msec_timestamp;
    return json(reply, { messages: items });
  });

  // Typing indicator
  app.post<P>('/:scopeId/typing', async (request, reply) => {
    const scopeId = request.params.scopeId!;
    const typing = gate(ctx, request, {
      channel: state.channelOfScope(scopeId),
      validate: (c, raw) => {
        const body = objectOf(c, raw);
        if (va.isOn('chat-typing-unvalidated')) return undefined;
        const conversation = c.str(body, 'conversation_id', '', { required: true, nonEmpty: true });
        if (body.duration_ms === undefined && f.isOn('chat-crash-on-typing-without-duration')) throw new Error('simulated crash: the missing duration is used as a number');
        c.int(body, 'duration_ms', '', { required: f.isOn('chat-typing-requires-duration'), min: 0 });
        const sender = c.obj(body, 'sender', '', { required: true });
        const senderId = sender ? c.str(sender, 'id', 'sender', { required: true }) : undefined;
        return { conversation, senderId };
      },
    });
    if (!f.isOn('chat-typing-any-scope')) {
      const conn = connected(state, scopeId);
      if (typing?.conversation !== undefined && !state.chatOf(conn, typing.conversation) && f.isOn('chat-crash-on-typing-unknown-conversation')) throw new Error('simulated crash: typing in a chat that is not there');
      if (typing?.senderId !== undefined && !state.hasClient(conn, typing.senderId) && f.isOn('chat-crash-on-typing-unknown-sender')) throw new Error('simulated crash: the typing sender is not there');
    }
    return va.isOn('chat-typing-answers-200') ? emptyOk(reply) : reply.code(204).send();
  });

  // Reaction
  app.post<P>('/:scopeId/react', async (request, reply) => {
    const scopeId = request.params.scopeId!;
    const v = gate(ctx, request, {
      channel: state.channelOfScope(scopeId),
      validate: (c, raw) => {
        const body = objectOf(c, raw);
        const lax = f.isOn('chat-react-unvalidated');
        const conversationId = c.str(body, 'conversation_id', '');
        const conversationRefId = c.str(body, 'conversation_ref_id', '');
        if (conversationId === undefined && conversationRefId === undefined && !lax) c.add('conversation_id', 'or conversation_ref_id is required');
        const id = c.str(body, 'id', '');
        const msgid = c.str(body, 'msgid', '');
        if (id === undefined && msgid === undefined && !lax) c.add('msgid', 'or id is required');
        const user = c.obj(body, 'user', '', { required: !lax });
        if (user) { c.str(user, 'id', 'user', { required: !lax }); c.str(user, 'ref_id', 'user'); }
        const type = lax ? 'react' : c.oneOf(body, 'type', '', ['react', 'unreact'] as const, { required: true });
        const emoji = c.str(body, 'emoji', '', { required: (type === 'react' && va.isOn('chat-react-emoji-required')) || f.isOn('chat-reaction-emoji-required') });
        return { conversationId, conversationRefId, id, msgid, type: type ?? 'react', emoji: emoji ?? '', userId: String((user?.id as string | undefined) ?? '') };
      },
    });
    const conn = connected(state, scopeId);
    if (v.conversationId === undefined && f.isOn('chat-crash-on-react-by-ref-id-only')) throw new Error('simulated crash: the reaction\'s chat is looked up by an undefined conversation_id');
    if (v.msgid === undefined && f.isOn('chat-crash-on-react-by-id-only')) throw new Error('simulated crash: the reaction\'s message is looked up by an undefined msgid');
    if (!state.hasClient(conn, v.userId) && f.isOn('chat-crash-on-react-unknown-user')) throw new Error('simulated crash: the reacting user is not there');
    if (v.type === 'react' && v.emoji === '' && f.isOn('chat-crash-on-react-without-emoji')) throw new Error('simulated crash: the missing emoji is stored');
    const chat = v.conversationId !== undefined ? state.chatOf(conn, v.conversationId) : v.conversationRefId !== undefined ? state.chatByEitherId(conn, v.conversationRefId) : undefined;
    if (!chat && f.isOn('chat-crash-on-react-unknown-conversation')) throw new Error('simulated crash: the reaction\'s chat is not there');
    const byId = v.id !== undefined && !f.isOn('chat-react-msgid-only') ? state.message(conn, v.id) : undefined;
    const m = byId ?? (v.msgid !== undefined ? state.message(conn, v.msgid) : undefined);
    if (!m && !byId && v.msgid !== undefined && f.isOn('chat-crash-on-unknown-react-msgid')) throw new Error('simulated crash: the reaction\'s message is not there');
    const chatMatters = !f.isOn('chat-react-ignores-conversation');
    if (!m || (chatMatters && chat && m.chat !== chat) || (!chat && (v.conversationId !== undefined || v.conversationRefId !== undefined) && !f.isOn('chat-react-unvalidated'))) {
      throw notFound('MESSAGE_NOT_FOUND', 'message does not exist');
    }
    const onto = f.isOn('chat-react-on-latest') ? m.chat.messages.at(-1) ?? m : m;
    if (v.type === 'react' && onto.reactions.get(v.userId) === v.emoji && f.isOn('chat-crash-on-repeated-react')) throw new Error('simulated crash: duplicate key on the user\'s reaction');
    if (v.type === 'unreact' && !onto.reactions.has(v.userId) && va.isOn('chat-repeat-refused')) throw invalidRequest([{ field: 'type', message: 'the user has no reaction on the message' }]);
    if (v.type === 'unreact' && !onto.reactions.has(v.userId) && f.isOn('chat-crash-on-second-unreact')) throw new Error('simulated crash: the user\'s reaction is not there to remove');
    if (v.type === 'react') onto.reactions.set(v.userId, v.emoji);
    else if (!f.isOn('chat-unreact-ignored')) onto.reactions.delete(v.userId);
    return emptyOk(reply);
  });

  // Anything else under the prefix: still signature first when the channel is known, then 405 with Allow on the
  // path of an endpoint (RFC 9110 §15.5.6), 404 elsewhere.
  app.all('/*', async (request, reply) => {
    const below = pathBelow(request, CHAT_PREFIX);
    const first = (below.slice(1).split(/[/?]/, 1)[0]) ?? '';
    const channel = state.channels.get(first) ?? state.channelOfScope(first);
    if (channel) verifySignature(ctx, request, channel.secret);
    const allow = allowedMethods(below);
    if (allow.length > 0) {
      // Only for the `chat-wrong-method-crash` fault: the fallback of the router throws.
      if (f.isOn('chat-wrong-method-crash')) throw new Error(`no handler for ${request.method}`);
      if (!ctx.variations.isOn('chat-405-without-allow')) reply.header('allow', allow.join(', '));
      return sendChatError(reply, new ChatError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not served on this path; allowed: ${allow.join(', ')}`), f);
    }
    if (f.isOn('chat-unknown-path-html')) return reply.code(404).header('content-type', 'text/html; charset=utf-8').send('<html><body><h1>404 Not Found</h1></body></html>');
    throw notFound('NOT_FOUND', `no chat endpoint for ${request.method} on this path`);
  });
}

function readJsonLoose(request: FastifyRequest): unknown {
  try {
    return request.rawBody && request.rawBody.length > 0 ? JSON.parse(request.rawBody.toString('utf8')) : undefined;
  } catch {
    return undefined;
  }
}

function queryInt(c: Validator, query: Record<string, unknown>, key: string, min: number): number | undefined {
  const v = query[key];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || !/^\d{1,9}$/.test(v) || Number(v) < min) {
    c.add(key, `must be an integer of at least ${min}`);
    return undefined;
  }
  return Number(v);
}

/** What the `chat-history-query-lenient` fault reads instead: parseInt, clamped to the minimum, never refused. */
function lenientInt(_c: Validator, query: Record<string, unknown>, key: string, min: number): number | undefined {
  const n = Number.parseInt(String(query[key] ?? ''), 10);
  return Number.isNaN(n) ? undefined : Math.max(min, n);
}

// ---- message events

interface MessageEvent {
  readonly event: 'new_message' | 'edit_message';
  readonly p: Obj;
  readonly conversationId: string;
  readonly msgid?: string;
  readonly id?: string;
  readonly timestamp: number;
  readonly msecTimestamp: number;
  readonly silent: boolean;
  readonly externalId?: string;
  readonly sender?: ReturnType<typeof participant>;
  readonly receiver?: ReturnType<typeof participant>;
  readonly message: NonNullable<ReturnType<typeof message>>;
  readonly replyTo?: EmbeddedIn;
  readonly forwards: readonly EmbeddedIn[];
  /** forwards.conversation_ref_id: the chat-interface id of the chat the forwarded messages come from. */
  readonly forwardsRefId?: string;
}

function validateMessageEvent(c: Validator, raw: unknown, conn: Connection | undefined, channel: ChannelRecord | undefined): MessageEvent {
  const body = objectOf(c, raw);
  const anyKind = c.faults.isOn('chat-event-type-unknown-as-new') && typeof body.event_type === 'string' && body.event_type !== 'edit_message';
  const event = anyKind ? 'new_message' : c.oneOf(body, 'event_type', '', ['new_message', 'edit_message'] as const, { required: true });
  const p = c.obj(body, 'payload', '', { required: true }) ?? {};
  const edit = event === 'edit_message';
  const conversationId = c.str(p, 'conversation_id', 'payload', { required: true, nonEmpty: true }) ?? '';
  c.str(p, 'conversation_ref_id', 'payload');
  const timestamp = c.int(p, 'timestamp', 'payload', { required: !edit, min: 0 }) ?? 0;
  const msecTimestamp = c.int(p, 'msec_timestamp', 'payload', { required: !edit, min: 0 }) ?? timestamp * 1000;
  if (!Object.hasOwn(p, 'silent') && !edit && c.faults.isOn('chat-crash-without-silent')) throw new Error('simulated crash: the missing silent flag is read');
  const silent = c.variations.isOn('chat-silent-truthy') ? Boolean(p.silent) : c.bool(p, 'silent', 'payload') ?? false;
  const msgid = c.str(p, 'msgid', 'payload', { required: !edit, nonEmpty: true });
  const id = edit ? c.str(p, 'id', 'payload') : undefined;
  if (edit && p.msec_timestamp === undefined && c.faults.isOn('chat-crash-on-edit-without-timestamps')) throw new Error('simulated crash: the edit time is read from a missing msec_timestamp');
  if (edit && id !== undefined && msgid === undefined && c.faults.isOn('chat-crash-on-edit-by-id-only')) throw new Error('simulated crash: the edited message is looked up by an undefined msgid');
  if (edit && id === undefined && msgid === undefined) c.add('payload.msgid', 'or payload.id is required to edit');
  const msg = message(c, p, 'payload', { edit });
  const base = { event: event ?? 'new_message', p, conversationId, timestamp, msecTimestamp, silent, ...(msgid !== undefined && { msgid }), ...(id !== undefined && { id }), forwards: [] } as const;
  if (edit) {
    if (msg?.postId !== undefined && !c.faults.isOn('chat-comment-edit-accepted')) c.add('payload.message.post', 'comments cannot be edited');
    return { ...base, message: msg ?? { type: 'text', text: '' } };
  }
  const externalId = source(c, p, 'payload');
  const sender = participant(c, p, 'sender', 'payload', { required: true });
  const receiver = c.faults.isOn('chat-receiver-unvalidated') && isObj(p.receiver)
    ? { id: String(p.receiver.id ?? randomUUID()), name: String(p.receiver.name ?? '') }
    : participant(c, p, 'receiver', 'payload', { required: false });
  // §4.3 message kinds: with a receiver the message is outgoing, from an account user or from the bot.
  if (receiver && sender && conn && channel) {
    const ref = sender.refId;
    const isBot = ref === channel.botId;
    if (ref === undefined) c.add('payload.sender.ref_id', 'is required for an outgoing message (an account user id or the bot id)');
    else if (!isBot && !conn.account.userIds.includes(ref)) c.add('payload.sender.ref_id', 'is neither an account user id nor the bot id');
    if (isBot && msg?.postId !== undefined && !c.variations.isOn('chat-comment-bot-accepted')) c.add('payload.sender.ref_id', 'the bot cannot reply to a comment');
  }
  let replyTo: MessageEvent['replyTo'];
  const rt = c.obj(p, 'reply_to', 'payload');
  if (rt && !(c.faults.isOn('chat-reply-to-message-optional') && !isObj(rt.message))) {
    if (!Object.hasOwn(rt, 'message')) c.add('payload.reply_to.message', 'is required');
    else replyTo = embedded(c, rt.message, 'payload.reply_to.message');
  }
  const forwards: EmbeddedIn[] = [];
  let forwardsRefId: string | undefined;
  const fw = c.obj(p, 'forwards', 'payload');
  if (fw && !(c.faults.isOn('chat-forwards-messages-optional') && !Array.isArray(fw.messages))) {
    const list = fw.messages;
    if (Array.isArray(list) && list.length === 0 && c.faults.isOn('chat-crash-on-empty-forwards')) throw new Error('simulated crash: the first forwarded message is read from an empty array');
    if (fw.conversation_id === undefined && c.faults.isOn('chat-crash-on-forwards-without-conversation-id')) throw new Error('simulated crash: the forwards\' conversation_id is read');
    if (fw.conversation_ref_id === undefined && c.faults.isOn('chat-crash-on-forwards-without-ref-id')) throw new Error('simulated crash: the forwards\' source chat is looked up by an undefined id');
    if (!Array.isArray(list)) c.add('payload.forwards.messages', 'must be an array');
    else {
      if (list.length > MAX_FORWARDS && !c.faults.isOn('chat-forwards-unlimited')) c.add('payload.forwards.messages', `must hold at most ${MAX_FORWARDS} message`);
      // The unchecked-forwards fault validates forwarded messages with a validator whose errors are thrown away.
      const fc = c.faults.isOn('chat-forwards-embedded-unchecked') ? new Validator(c.faults) : c;
      list.forEach((e, i) => { const r = embedded(fc, e, `payload.forwards.messages.${i}`); if (r) forwards.push(r); });
    }
    forwardsRefId = c.str(fw, 'conversation_ref_id', 'payload.forwards');
    c.str(fw, 'conversation_id', 'payload.forwards');
  }
  return {
    ...base, ...(externalId !== undefined && { externalId }), sender, receiver, message: msg ?? { type: 'text', text: '' }, ...(replyTo && { replyTo }), forwards,
    ...(forwardsRefId !== undefined && { forwardsRefId }),
  };
}

function responseOf(m: StoredMessage, conversationId: string, ctx?: EmulatorContext): { new_message: Record<string, unknown> } {
  const f = ctx?.faults;
  const va = ctx?.variations;
  // Only for the `chat-answer-msgid-not-stored` fault: the answer names an id the message is not stored under.
  const msgid = f?.isOn('chat-answer-msgid-not-stored') ? randomUUID() : f?.isOn('chat-answer-msgid-integration-side') ? m.clientId : m.id;
  const nm: Record<string, unknown> = {
    conversation_id: va?.isOn('chat-answer-conversation-chat-id') ? m.chat.id : conversationId,
    sender_id: m.sender.id, receiver_id: m.receiver?.id ?? null, msgid, ref_id: m.clientId,
  };
  if (!ctx || !f) return { new_message: nm };
  // The faults below answer ids of something other than the message's own chat, sender, receiver and msgid.
  if (f.isOn('chat-answer-conversation-id-last-chat')) nm.conversation_id = lastChatOf(chatState(ctx), m.chat.scopeId)?.conversationId ?? conversationId;
  if (f.isOn('chat-answer-sender-receiver-swapped') && m.receiver) Object.assign(nm, { sender_id: m.receiver.id, receiver_id: m.sender.id });
  if (f.isOn('chat-answer-sender-id-chat-id')) nm.sender_id = m.chat.id;
  if (f.isOn('chat-answer-ref-id-chat-interface-id')) nm.ref_id = m.id;
  if (f.isOn('chat-answer-receiver-id-incoming-bot') && !m.receiver) nm.receiver_id = chatState(ctx).channelOfScope(m.chat.scopeId)?.botId ?? null;
  return { new_message: nm };
}

/** The chat created last under a scope (what the `chat-answer-conversation-id-last-chat` fault answers). */
function lastChatOf(state: ChatState, scopeId: string): Chat | undefined {
  let last: Chat | undefined;
  for (const c of state.chatsById.values()) if (c.scopeId === scopeId) last = c;
  return last;
}

async function newMessage(ctx: EmulatorContext, state: ChatState, conn: Connection, v: MessageEvent): Promise<{ new_message: Record<string, unknown> }> {
  const f = ctx.faults;
  const outgoing = v.receiver !== undefined;
  const client = state.client(conn, (outgoing ? v.receiver : v.sender)!);
  let chat = state.chatOf(conn, v.conversationId);
  // Existence of quoted and forwarded messages (§4.3 reply_to: the same chat; forwards: any chat of the integration).
  const resolve = (e: EmbeddedIn) => (e.id !== undefined ? state.message(conn, e.id) : e.msgid !== undefined ? state.message(conn, e.msgid) : undefined);
  if (v.replyTo && (v.replyTo.id !== undefined || v.replyTo.msgid !== undefined)) {
    if (v.replyTo.msgid === undefined && f.isOn('chat-crash-on-reply-by-id-only')) throw new Error('simulated crash: the quote is looked up by an undefined msgid');
    const quoted = resolve(v.replyTo);
    if (!quoted && v.replyTo.msgid !== undefined && f.isOn('chat-crash-on-unknown-reply-msgid')) throw new Error('simulated crash: the quoted message is not there');
    if (!quoted || (!ctx.variations.isOn('chat-reply-to-any-chat') && quoted.chat !== chat)) {
      throw invalidRequest([{ field: 'payload.reply_to.message', message: 'must be a message of the same chat' }]);
    }
  }
  for (const [i, e] of v.forwards.entries()) {
    if ((e.id !== undefined || e.msgid !== undefined) && !resolve(e) && f.isOn('chat-crash-on-unknown-forward-msgid')) throw new Error('simulated crash: the forwarded message is not there');
    if ((e.id !== undefined || e.msgid !== undefined) && !resolve(e)) throw invalidRequest([{ field: `payload.forwards.messages.${i}`, message: 'is not a message of this integration' }]);
  }
  if (v.forwardsRefId !== undefined && !state.chatByEitherId(conn, v.forwardsRefId) && f.isOn('chat-crash-on-forwards-unknown-ref-id')) throw new Error('simulated crash: the forwards\' source chat is not there');
  if (v.forwardsRefId !== undefined && !forwardedChatKnown(ctx, state, conn, v.forwardsRefId)) {
    throw invalidRequest([{ field: 'payload.forwards.conversation_ref_id', message: 'is not a chat of this integration' }]);
  }
  // §4.3: conversation_ref_id names a chat of this connection (write-first); one of another scope or none is refused.
  const ref = typeof v.p.conversation_ref_id === 'string' ? v.p.conversation_ref_id : undefined;
  const referred = ref !== undefined ? state.chatByEitherId(conn, ref) : undefined;
  if (ref !== undefined && !referred && !f.isOn('chat-conversation-ref-id-unchecked')) {
    throw invalidRequest([{ field: 'payload.conversation_ref_id', message: 'is not a chat of this channel connection' }]);
  }
  // The client's reply to a write-first chat links it: the conversation continues in the chat the account started.
  if (!chat && referred && referred.conversationId === '' && f.isOn('chat-write-first-reply-refused')) {
    throw invalidRequest([{ field: 'payload.conversation_ref_id', message: 'names a chat without conversation_id' }]);
  }
  if (!chat && referred && referred.conversationId === '' && !ctx.variations.isOn('chat-write-first-not-linked')) {
    state.linkConversation(conn, v.conversationId, referred);
    chat = referred;
  }
  chat ??= state.newChat(conn, v.conversationId, client, v.externalId);
  const existing = state.message(conn, v.msgid!);
  if (existing && existing.chat === chat && existing.postId === v.message.postId) return responseOf(existing, v.conversationId, ctx);
  if (outgoing) checkReplyWindow(ctx, conn, chat);
  // The race fault: the msgid was looked up before the yield and is not looked up again before the insert.
  if (!existing && f.isOn('chat-msgid-race')) await raceWindow(ctx).hold(`msgid ${chat.id} ${v.msgid!}`);

  const sender: Person = outgoing ? accountSide(conn, v.sender!) : client;
  const { sharedPost, deliveryStatus: given } = v.message;
  const status = given ?? (f.isOn('chat-status-default-delivered') ? { code: 1 } : undefined);
  const m: StoredMessage = {
    id: randomUUID(), clientId: v.msgid!, chat, seq: state.nextSeq(), timestamp: v.timestamp, msecTimestamp: v.msecTimestamp, receivedMs: ctx.clock.nowMs(),
    sender, ...(outgoing && { receiver: client }), content: v.message, reactions: new Map(),
    ...(v.message.postId !== undefined && !f.isOn('chat-comments-merged') && !(outgoing && f.isOn('chat-comment-reply-to-private')) && { postId: outgoing && f.isOn('chat-comment-reply-own-conversation') ? `${v.message.postId}#reply` : v.message.postId }),
    ...(status && { status }),
    ...(sharedPost && { sharedPost: storedSharedPost(sharedPost, ctx.baseUrl(), f, ctx.variations) }),
    ...(v.replyTo && { replyTo: storedQuote(v.replyTo, resolve(v.replyTo), f) }),
    ...(v.forwards.length > 0 && { forwards: v.forwards.map((e) => storedQuote(e, resolve(e), f)) }),
  };
  state.indexMessage(conn, m);
  if (m.postId !== undefined) {
    const list = chat.comments.get(m.postId) ?? [];
    list.push(m);
    chat.comments.set(m.postId, list);
  } else if (f.isOn('chat-message-lost-under-concurrency')) {
    const snapshot = chat.messages;
    await raceWindow(ctx).hold(`messages ${chat.id}`);
    const next = [...snapshot];
    insertInOrder(next, m);
    chat.messages = next;
  } else insertInOrder(chat.messages, m);

  if (!outgoing) clientWrote(ctx, chat);
  // §4.3 rule 3: an imported bot message is the integration's own; no outgoing-message hook echoes it back.
  if (outgoing && v.silent && sender.id === conn.channel.botId && f.isOn('chat-imported-bot-hook')) {
    state.hooks.push(hookRecord(conn.hookApiVersion, { conn, chat, msgid: m.id, managerId: sender.id, text: m.content.text ?? '', nowMs: ctx.clock.nowMs() }));
  }
  if (!outgoing && (!v.silent || f.isOn('chat-silent-ignored'))) recordIncoming(ctx, state, conn, chat, m, v.externalId);
  else if (!outgoing && f.isOn('chat-silent-still-creates-lead')) {
    const kept = state.notifications.length;
    recordIncoming(ctx, state, conn, chat, m, v.externalId);
    state.notifications.length = kept;
  }
  return responseOf(m, v.conversationId, ctx);
}

/**
 * §4.3 forwards: conversation_ref_id names a chat that belongs to the integration, here one of this channel
 * connection (a chat of another account's connection is not; the scope is what a request reaches, §2.4).
 */
function forwardedChatKnown(ctx: EmulatorContext, state: ChatState, conn: Connection, refId: string): boolean {
  if (ctx.faults.isOn('chat-forwards-ref-id-unchecked') || ctx.variations.isOn('chat-forwards-ref-id-unchecked')) return true;
  if (state.chatByEitherId(conn, refId)) return true;
  return ctx.faults.isOn('chat-forwards-ref-id-any-account') && [...state.connections.values()].some((other) => state.chatByEitherId(other, refId) !== undefined);
}

/** A non-silent incoming message notifies the account, and the first one of a chat creates its unsorted lead. */
function recordIncoming(ctx: EmulatorContext, state: ChatState, conn: Connection, chat: Chat, m: StoredMessage, externalId: string | undefined): void {
  // The late-effects variation records both 10 s after the answer (they are decided now, as the message is).
  const later = (record: () => void) => (ctx.variations.isOn('chat-effects-late') ? void setTimeout(record, LATE_EFFECT_MS).unref() : record());
  const now = ctx.clock.nowSeconds();
  const first = chat.leadId === undefined;
  if (first || !ctx.faults.isOn('chat-notification-first-only')) {
    // Two notifications (the new chat, and its message) only for a chat's very first message, not after a silent import.
    const times = first && chat.messages.length <= 1 && ctx.variations.isOn('chat-first-message-notifies-twice') ? 2 : 1;
    later(() => {
      for (let i = 0; i < times; i += 1) state.notifications.push({ id: state.notifications.length + 1, scope_id: conn.scopeId, chat_id: chat.id, conversation_id: chat.conversationId, msgid: m.clientId, text: m.content.text, created_at: now });
    });
  }
  if (!first && !ctx.faults.isOn('chat-lead-per-message')) return;
  const ext = externalId ?? chat.sourceExternalId;
  const leadId = (chat.leadId = state.nextLeadId());
  const u = chat.user;
  const pipelineId = state.pipelineFor(conn, ext);
  later(() => state.leads.push({
    id: leadId, scope_id: conn.scopeId, account_id: conn.account.amojoId, chat_id: chat.id, conversation_id: chat.conversationId,
    pipeline_id: pipelineId, source_external_id: ext ?? null,
    contact: { name: u.name, ...(!ctx.faults.isOn('chat-profile-not-in-contact') && { ...(u.phone !== undefined && { phone: phoneShown(u.phone, ctx.variations) }), ...(u.email !== undefined && { email: u.email }) }) }, created_at: now,
  }));
}

/** How late the `chat-effects-late` variation records a lead or a notification: inside the 15 s effect window. */
const LATE_EFFECT_MS = 10_000;

/** The fields §4.3 says are ignored on edit; the `chat-edit-ignored-fields-refused` variation refuses an edit carrying one. */
const IGNORED_ON_EDIT = ['source', 'sender', 'receiver', 'reply_to', 'forwards'] as const;

function ignoredOnEditRefused(c: Validator, v: MessageEvent): MessageEvent {
  if (v.event === 'edit_message' && c.variations.isOn('chat-edit-ignored-fields-refused')) {
    for (const k of IGNORED_ON_EDIT) if (Object.hasOwn(v.p, k)) c.add(`payload.${k}`, 'is not taken on edit');
  }
  return v;
}

/** "Empty values may be omitted" (§4.3 history): the `chat-history-empty-values-omitted` variation leaves them out. */
function omitEmpty(item: Record<string, unknown>): void {
  for (const key of ['sender', 'receiver', 'message']) {
    const o = item[key];
    if (o && typeof o === 'object') for (const [k, val] of Object.entries(o)) if (val === '' || val === null) delete (o as Record<string, unknown>)[k];
  }
}

/** The sender of an outgoing message: an account user (ref_id = user id) or the bot (ref_id = bot id); no client id. */
function accountSide(conn: Connection, p: NonNullable<MessageEvent['sender']>): Person {
  return { id: p.refId === conn.channel.botId ? conn.channel.botId : p.refId!, name: p.name, avatar: p.avatar ?? '' };
}

async function editMessage(ctx: EmulatorContext, state: ChatState, conn: Connection, v: MessageEvent): Promise<{ new_message: Record<string, unknown> }> {
  const f = ctx.faults;
  const chat = state.chatOf(conn, v.conversationId);
  const key = v.id ?? v.msgid!;
  const inScope = state.message(conn, key);
  const m = inScope ?? (f.isOn('chat-edit-any-scope') ? [...state.connections.values()].map((other) => state.message(other, key)).find((x) => x !== undefined) : undefined);
  if (!m && chat && v.msgid !== undefined && f.isOn('chat-edit-unknown-creates')) return createdByEdit(state, conn, chat, v);
  const chatMatters = !f.isOn('chat-edit-ignores-conversation') && !(f.isOn('chat-edit-any-scope') && !inScope);
  if (!chat && f.isOn('chat-crash-on-edit-unknown-conversation')) throw new Error('simulated crash: the edited message\'s chat is not there');
  if (!m && f.isOn('chat-crash-on-edit-unknown-message')) throw new Error('simulated crash: the edited message is not there');
  if (!chat || !m || (m.chat !== chat && chatMatters)) throw notFound('MESSAGE_NOT_FOUND', 'message does not exist');
  const old = m.content;
  if (f.isOn('chat-crash-on-repeated-edit') && old.type === v.message.type && old.text === v.message.text) throw new Error('simulated crash: an edit with nothing to change');
  // File fields may be left out when the file is unchanged (§2.7, §4.3 rule 4).
  const keep = !f.isOn('chat-edit-file-fields-cleared');
  const content = keep
    ? { ...v.message, ...(v.message.media === undefined && old.media !== undefined && { media: old.media }), ...(v.message.fileName === undefined && old.fileName !== undefined && { fileName: old.fileName }), ...(v.message.fileSize === undefined && old.fileSize !== undefined && { fileSize: old.fileSize }) }
    : v.message;
  const quotes = isObj(v.p.reply_to) || isObj(v.p.forwards);
  // The race fault: an edit that overlapped another of the same message no longer found it in place and inserted it.
  const raced = f.isOn('chat-edit-race') && await overlapped(ctx, `edit ${m.id}`);
  if (raced || f.isOn('chat-edit-appends') || (quotes && f.isOn('chat-edit-quote-appends'))) {
    const copy: StoredMessage = { ...m, id: randomUUID(), seq: state.nextSeq(), content, reactions: new Map() };
    insertInOrder(m.chat.messages, copy);
    state.indexMessage(conn, copy);
    return responseOf(copy, v.conversationId, ctx);
  }
  // The ignored-edit fault keeps the edit as a revision nothing reads.
  if (!f.isOn('chat-edit-ignored')) m.content = content;
  if (v.id !== undefined && v.msgid === undefined && f.isOn('chat-edit-by-id-clears-msgid')) m.clientId = '';
  if (f.isOn('chat-edit-takes-source')) takeSource(state, conn, m.chat, v.p);
  if (f.isOn('chat-edit-takes-sender') && isObj(v.p.sender)) (m as { sender: Person }).sender = editedPerson(v.p.sender);
  if (f.isOn('chat-edit-takes-receiver') && isObj(v.p.receiver)) (m as { receiver?: Person }).receiver = editedPerson(v.p.receiver);
  if (v.id !== undefined && v.msgid !== undefined && v.msgid !== m.clientId && !f.isOn('chat-edit-msgid-not-rebound')) {
    m.clientId = v.msgid;
    state.indexMessage(conn, m);
  }
  return responseOf(m, v.conversationId, ctx);
}

/** What the `chat-edit-unknown-creates` fault does with an edit of an unknown msgid: stores it as a new incoming message. */
function createdByEdit(state: ChatState, conn: Connection, chat: Chat, v: MessageEvent): { new_message: Record<string, unknown> } {
  const m: StoredMessage = {
    id: randomUUID(), clientId: v.msgid!, chat, seq: state.nextSeq(), timestamp: v.timestamp, msecTimestamp: v.msecTimestamp,
    sender: chat.user, content: v.message, reactions: new Map(),
  };
  state.indexMessage(conn, m);
  insertInOrder(chat.messages, m);
  return responseOf(m, v.conversationId);
}

/** What the `chat-edit-takes-source` fault does with an edit's source: moves the chat and its lead to it. */
function takeSource(state: ChatState, conn: Connection, chat: Chat, p: Obj): void {
  if (!isObj(p.source) || p.source.external_id === undefined) return;
  const ext = String(p.source.external_id);
  chat.sourceExternalId = ext;
  const i = state.leads.findIndex((l) => l.chat_id === chat.id);
  if (i >= 0) state.leads[i] = { ...state.leads[i]!, source_external_id: ext, pipeline_id: state.pipelineFor(conn, ext) };
}

/** A participant taken from an edit's payload, as the two edit faults wrongly store it. */
function editedPerson(p: Obj): Person {
  return { id: randomUUID(), clientId: String(p.id), name: String(p.name), avatar: '' };
}

// ---- views

/** How answers show people and files: the variations that re-host files or spell "empty" otherwise, and the base of the emulator's file storage. */
interface Look {
  readonly variations?: VariationSwitches;
  readonly base: string;
}

const lookOf = (ctx: EmulatorContext): Look => ({ variations: ctx.variations, base: ctx.baseUrl() });

/** A short stable name for a file copy on the emulator's own storage (it does not serve them: there is no outside network). */
const copyName = (url: string): string => createHash('sha256').update(url).digest('hex').slice(0, 16);

/** The phone as answers show it: under `chat-phone-normalised`, digits only. */
function phoneShown(phone: string, variations?: VariationSwitches): string {
  return variations?.isOn('chat-phone-normalised') ? phone.replace(/\D/g, '') : phone;
}

/** §2.5 avatar "empty if not given": "" by default; null or left out under the variations; a given one re-hosted under `chat-avatar-rehosted`. */
function avatarMember(avatar: string, look?: Look): Record<string, unknown> {
  const v = look?.variations;
  if (avatar === '') return v?.isOn('chat-avatar-omitted') ? {} : { avatar: v?.isOn('chat-avatar-null') ? null : '' };
  return { avatar: v?.isOn('chat-avatar-rehosted') ? `${look!.base}/files/avatars/${copyName(avatar)}` : avatar };
}

function personView(p: Person, mode: 'as-is' | 'drop-client-id' | 'fake-client-id' = 'as-is', look?: Look): Record<string, unknown> {
  const clientId = mode === 'drop-client-id' ? undefined : mode === 'fake-client-id' ? (p.clientId ?? p.id) : p.clientId;
  const nulls = look?.variations?.isOn('chat-profile-null') ?? false;
  return {
    id: p.id, ...(clientId !== undefined && { client_id: clientId }), name: p.name, ...avatarMember(p.avatar, look),
    ...(p.phone !== undefined ? { phone: phoneShown(p.phone, look?.variations) } : nulls && { phone: null }),
    ...(p.email !== undefined ? { email: p.email } : nulls && { email: null }),
  };
}

function historyItem(m: StoredMessage, confused: boolean, dropFiles: boolean, look?: Look): Record<string, unknown> {
  const c = m.content;
  const message: Record<string, unknown> = { id: m.id, client_id: m.clientId, type: c.type, text: c.text };
  if (c.media !== undefined) {
    const media = look?.variations?.isOn('chat-media-rehosted') ? `${look.base}/files/media/${copyName(c.media)}` : c.media;
    message.media = media;
    message.thumbnail = media;
  }
  if (!dropFiles) {
    if (c.fileName !== undefined) message.file_name = c.fileName;
    if (c.fileSize !== undefined) message.file_size = c.fileSize;
    if (c.location) message.location = c.location;
    if (c.contact) message.contact = c.contact;
  }
  return {
    timestamp: m.timestamp,
    msec_timestamp: m.msecTimestamp,
    sender: personView(m.sender, confused ? 'fake-client-id' : 'as-is', look),
    ...(m.receiver && { receiver: personView(m.receiver, 'as-is', look) }),
    message,
  };
}

/** The messages a history reads: the chat's, or under `chat-history-by-user` those of every chat of its client in the scope. */
function historySource(state: ChatState, chat: Chat, f: FaultSwitches): readonly StoredMessage[] {
  if (!f.isOn('chat-history-by-user')) return chat.messages;
  const all: StoredMessage[] = [];
  for (const c of state.chatsById.values()) if (c.scopeId === chat.scopeId && c.user === chat.user) for (const m of c.messages) insertInOrder(all, m);
  return all;
}

/** What the history faults show wrongly of one message: another sender or receiver, a value changed or dropped. */
function misshown(item: Record<string, unknown>, m: StoredMessage, conn: Connection, f: FaultSwitches, look: Look): void {
  const message = item.message as Record<string, unknown>;
  const bot = conn.channel.botId;
  if (m.receiver && f.isOn('chat-history-manager-shown-as-bot') && m.sender.id !== bot) item.sender = personView({ id: bot, name: conn.channel.name, avatar: '' }, 'as-is', look);
  const admin = conn.account.userIds[0];
  if (m.receiver && f.isOn('chat-history-outgoing-as-admin') && admin !== undefined) item.sender = personView({ id: admin, name: 'Administrator', avatar: '' }, 'as-is', look);
  if (!m.receiver && f.isOn('chat-history-sender-name-is-client-id') && m.sender.clientId !== undefined) (item.sender as Record<string, unknown>).name = m.sender.clientId;
  if (m.receiver && f.isOn('chat-history-receiver-is-sender')) item.receiver = item.sender;
  const loc = m.content.location;
  if (loc && f.isOn('chat-history-location-swapped')) message.location = { lon: loc.lat, lat: loc.lon };
  if (typeof message.file_size === 'number' && f.isOn('chat-history-file-size-string')) message.file_size = String(message.file_size);
  if ((message.type === 'picture' || message.type === 'video') && f.isOn('chat-history-media-type-as-file')) message.type = 'file';
  if (m.content.contact && f.isOn('chat-history-contact-phone-dropped')) message.contact = { name: m.content.contact.name };
  if (f.isOn('chat-history-msec-from-seconds')) item.msec_timestamp = m.timestamp * 1000;
  if (f.isOn('chat-history-message-id-is-msgid')) message.id = m.clientId;
}

/** §3.3 order of the delivery statuses for `chat-delivery-status-forward-only`: delivered, read, and error last. */
function statusRank(code: number): number {
  return code === -1 ? 3 : code;
}

/** Under `chat-status-code-coerced`, a status_code given as a string of digits is read as the number. */
function coercedStatus(variations: VariationSwitches, o: Obj): Obj {
  const v = o.status_code;
  return variations.isOn('chat-status-code-coerced') && typeof v === 'string' && /^-?\d+$/.test(v) ? { ...o, status_code: Number(v) } : o;
}
