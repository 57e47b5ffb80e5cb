/**
 * §4.3 "Get chat history": `GET /{scope_id}/chats/{conversation_id}/history`, newest first, offset and limit (§8: at most 50); 204 when there is nothing.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.js';
import type { ChatState } from '../state.js';
import type { FaultSwitches } from '../../faults.js';
import { ChatError, notFound } from '../errors.js';
import { crashOnOddInput } from '../http.js';
import { historyPage, insertInOrder, type Chat, type Connection, type StoredMessage } from '../state.js';
import { HISTORY_LIMIT_MAX, type Validator } from '../validate.js';
import { connected, gate, json, type P } from '../route-kit.js';
import { copyName, lookOf, personView, type Look } from '../views.js';
import { processed } from '../history-lag.js';

export function historyEndpoint(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  const f = ctx.faults;
  const va = ctx.variations;
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
        // The two unbounded-limit faults: limit 0, or a negative limit, read as "no limit" before the check.
        if ((query.limit === '0' && f.isOn('chat-history-limit-zero-unbounded')) || (/^-\d+$/.test(String(query.limit)) && f.isOn('chat-history-negative-limit-unbounded'))) {
          return { offset, limit: Number.MAX_SAFE_INTEGER };
        }
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
    const chat = state.chatByEitherId(conn, request.params.conversationId!)
      // The isolation fault: a conversation the scope does not hold is looked up in every scope of the channel.
      ?? (f.isOn('chat-history-any-scope') ? [...state.connections.values()].filter((o) => o.channel === conn.channel).map((o) => state.chatOf(o, request.params.conversationId!)).find((x) => x !== undefined) : undefined);
    if (!chat && f.isOn('chat-crash-on-history-unknown-conversation')) throw new Error('simulated crash: the messages of a chat that is not there are read');
    if (!chat && f.isOn('chat-history-missing-404')) throw notFound('CHAT_NOT_FOUND', 'chat does not exist');
    if (chat && chat.messages.length === 0 && f.isOn('chat-history-empty-chat-404')) throw notFound('CHAT_NOT_FOUND', 'chat has no messages');
    const offset = f.isOn('chat-history-offset-off-by-one') && q.offset > 0 ? q.offset + 1 : f.isOn('chat-history-offset-ignored-past-50') && q.offset >= HISTORY_LIMIT_MAX ? 0 : q.offset;
    const stored = chat ? historySource(state, chat, f) : [];
    const shown = va.isOn('chat-history-lags') ? processed(stored) : stored;
    const listed = f.isOn('chat-history-keeps-50') ? shown.slice(0, 50) : shown;
    const page = f.isOn('chat-history-offset-from-oldest') ? historyPage(listed.slice(offset), 0, q.limit) : historyPage(listed, offset, q.limit);
    if (page.length === 0 && offset > 0 && listed.length > 0 && va.isOn('chat-history-past-end-refused')) throw new ChatError(400, 'BAD_REQUEST', `offset ${q.offset} is past the end of the history`);
    if (page.length === 0) return va.isOn('chat-history-empty-as-200') ? json(reply, { messages: [] }) : reply.code(204).send();
    // The page-order fault: each page is listed oldest first, while pages are cut from the history newest first.
    if (f.isOn('chat-history-page-reversed')) page.reverse();
    const items = page.map((m) => historyItem(m, f.isOn('chat-kinds-confused'), f.isOn('chat-history-drops-file-fields'), lookOf(ctx)));
    page.forEach((m, i) => misshown(items[i]!, m, conn, f, lookOf(ctx)));
    if (va.isOn('chat-history-empty-values-omitted')) for (const item of items) omitEmpty(item);
    if (va.isOn('chat-history-receive-time')) {
      page.forEach((m, i) => { if (m.receivedMs !== undefined) Object.assign(items[i]!, { timestamp: Math.floor(m.receivedMs / 1000), msec_timestamp: m.receivedMs }); });
    }
    if (f.isOn('chat-history-timestamp-ms')) for (const item of items) item.timestamp = item.msec_timestamp;
    if (f.isOn('chat-history-client-id-as-id')) for (const item of items) { const m = item.message as Record<string, unknown>; m.client_id = m.id; }
    if (f.isOn('chat-history-text-plain')) return reply.code(200).header('content-type', 'text/plain; charset=utf-8').send(JSON.stringify({ messages: items }));
    return json(reply, { messages: items });
  });
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

/** What the `chat-history-query-clamped` variation reads instead: parseInt, clamped to the minimum, never refused. */
function lenientInt(_c: Validator, query: Record<string, unknown>, key: string, min: number): number | undefined {
  const n = Number.parseInt(String(query[key] ?? ''), 10);
  return Number.isNaN(n) ? undefined : Math.max(min, n);
}

/** "Empty values may be omitted" (§4.3 history): the `chat-history-empty-values-omitted` variation leaves them out. */
function omitEmpty(item: Record<string, unknown>): void {
  for (const key of ['sender', 'receiver', 'message']) {
    const o = item[key];
    if (o && typeof o === 'object') for (const [k, val] of Object.entries(o)) if (val === '' || val === null) delete (o as Record<string, unknown>)[k];
  }
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
  if (m.receiver && f.isOn('chat-history-profile-from-chat')) {
    const { phone, email } = personView(m.receiver, 'as-is', look);
    Object.assign(item.sender as Record<string, unknown>, { phone, email });
  }
  if (f.isOn('chat-history-profile-dropped')) for (const role of ['sender', 'receiver']) if (item[role]) { delete (item[role] as Record<string, unknown>).phone; delete (item[role] as Record<string, unknown>).email; }
  if (f.isOn('chat-history-avatar-of-channel')) for (const role of ['sender', 'receiver']) if (item[role]) (item[role] as Record<string, unknown>).avatar = '';
  const loc = m.content.location;
  if (loc && f.isOn('chat-history-location-swapped')) message.location = { lon: loc.lat, lat: loc.lon };
  if (typeof message.file_size === 'number' && f.isOn('chat-history-file-size-string')) message.file_size = String(message.file_size);
  if ((message.type === 'picture' || message.type === 'video') && f.isOn('chat-history-media-type-as-file')) message.type = 'file';
  if (typeof message.file_name === 'string' && m.content.media !== undefined && f.isOn('chat-history-file-name-of-copy')) message.file_name = copyName(m.content.media);
  if (['voice', 'audio', 'sticker'].includes(String(message.type)) && f.isOn('chat-history-media-emptied')) message.media = '';
  if (m.content.contact && f.isOn('chat-history-contact-phone-dropped')) message.contact = { name: m.content.contact.name };
  if (f.isOn('chat-history-msec-from-seconds')) item.msec_timestamp = m.timestamp * 1000;
  if (m.receivedMs !== undefined && f.isOn('chat-history-msec-of-receipt')) item.msec_timestamp = m.receivedMs;
  if (f.isOn('chat-history-message-id-is-msgid')) message.id = m.clientId;
}
