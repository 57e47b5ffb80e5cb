/**
 * Control API of the chat interface (docs/control-api.md, "Chat interface"): register channels, map sources to
 * pipelines, read the ground truth the chat rules compare with (unsorted leads, notifications, conversations of a
 * chat, outgoing-message hooks), and act as a manager writing from the account. Never answers a channel secret:
 * the caller chooses the secret of a channel it registers.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { EmulatorContext, RouteOptions } from '../context.js';
import { methodNotAllowed, ProblemError } from '../errors.js';
import { chatState, DEFAULT_PIPELINE_ID, insertInOrder, type Chat, type ChatState, type Connection, type HookRecord, type StoredMessage } from '../chat/state.js';
import { quoteView, senderView, sharedPostView } from '../chat/stored.js';
import { hookRecord, sendHook, type HookApiVersion } from '../chat/outgoing-hook.js';
import type { FaultSwitches } from '../faults.js';
import { badRequest, controlBody, optionalString, requiredString } from './validate.js';
import { CONTROL_PREFIX } from './routes.js';

/** The longest reply time window a registered channel may have (§2.4): 30 days. */
const REPLY_WINDOW_MAX_S = 30 * 86_400;

/** How late the `chat-hook-late-after-disconnect` fault delivers: well inside the emulator's 1 s effect window. */
const LATE_HOOK_MS = 300;

const P = `${CONTROL_PREFIX}/chat`;

const json = (reply: FastifyReply, status: number, body: unknown): FastifyReply =>
  reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));

function query(q: unknown, key: string): string | undefined {
  const v = (q as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function chatFor(state: ChatState, scopeId: string, conversationId: string): Chat | undefined {
  const conn = state.connections.get(scopeId);
  return conn ? state.chatOf(conn, conversationId) : undefined;
}

/**
 * §2.4 and §9: the hook goes with the version its own connection chose; under the fault, with the one the channel's
 * latest connect chose, whichever account that was.
 */
function hookVersionOf(state: ChatState, conn: Connection, faults: FaultSwitches): HookApiVersion {
  if (faults.isOn('chat-hook-version-per-channel')) return state.lastHookVersion.get(conn.channel.id) ?? conn.hookApiVersion;
  return conn.hookApiVersion;
}

export async function chatControlRoutes(app: FastifyInstance, { ctx }: RouteOptions): Promise<void> {
  const state = chatState(ctx);
  for (const register of [overview, channels, sources, groundTruth, accountMessage, writeFirst]) register(app, ctx, state);
}

/** What the chat interface holds: accounts, channels, the default pipeline. */
function overview(app: FastifyInstance, _ctx: EmulatorContext, state: ChatState): void {
  app.get(P, async (_request, reply) => json(reply, 200, {
    accounts: [...state.accounts.values()].map((a) => ({ id: a.accountId, amojo_id: a.amojoId, user_ids: a.userIds })),
    channels: [...state.channels.values()].map((c) => ({ id: c.id, bot_id: c.botId, name: c.name, reply_window_s: c.replyWindowS ?? null })),
    default_pipeline_id: DEFAULT_PIPELINE_ID,
  }));
  methodNotAllowed(app, P, ['GET']);
}

/** Registering a channel with the secret the caller chooses. */
function channels(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  app.post(`${P}/channels`, async (request, reply) => {
    const body = controlBody(request.body);
    const secret = requiredString(body, 'secret');
    if (secret.length < 16) throw badRequest('`secret` must be at least 16 characters');
    const id = optionalString(body, 'id') ?? randomUUID();
    if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) throw badRequest('`id` must be 1 to 64 letters, digits or dashes');
    if (state.channels.has(id)) throw new ProblemError({ status: 409, detail: 'a channel with this id is already registered' });
    const versions = body.hook_versions;
    if (versions !== undefined && (!Array.isArray(versions) || !versions.every((v) => v === 'v1' || v === 'v2'))) throw badRequest('`hook_versions` must be an array of "v1" and "v2"');
    const window = body.reply_window_s;
    if (window !== undefined && (typeof window !== 'number' || !Number.isSafeInteger(window) || window < 1 || window > REPLY_WINDOW_MAX_S)) {
      throw badRequest(`\`reply_window_s\` must be an integer from 1 to ${REPLY_WINDOW_MAX_S} (seconds)`);
    }
    const channel = {
      id, secret, botId: optionalString(body, 'bot_id') ?? randomUUID(), name: optionalString(body, 'name') ?? 'Registered Channel',
      ...(versions !== undefined && { hookVersions: versions as ('v1' | 'v2')[] }), ...(window !== undefined && { replyWindowS: window }),
    };
    state.channels.set(id, channel);
    ctx.secrets.add(secret);
    return json(reply, 201, { id: channel.id, bot_id: channel.botId, name: channel.name, reply_window_s: channel.replyWindowS ?? null });
  });
  methodNotAllowed(app, `${P}/channels`, ['POST']);
}

/** Mapping a source to a pipeline. */
function sources(app: FastifyInstance, _ctx: EmulatorContext, state: ChatState): void {
  app.post(`${P}/sources`, async (request, reply) => {
    const body = controlBody(request.body);
    const accountId = requiredString(body, 'account_id');
    if (!state.accounts.has(accountId)) throw new ProblemError({ status: 404, detail: 'unknown account_id (the chat-interface account id)' });
    const ext = body.external_id;
    if (typeof ext !== 'string' && typeof ext !== 'number' && typeof ext !== 'boolean') throw badRequest('`external_id` must be a string, a number or a boolean');
    const pipeline = body.pipeline_id;
    if (typeof pipeline !== 'number' || !Number.isSafeInteger(pipeline) || pipeline <= 0) throw badRequest('`pipeline_id` must be a positive integer');
    state.sources.set(`${accountId}|${String(ext)}`, pipeline);
    return json(reply, 200, { account_id: accountId, external_id: ext, pipeline_id: pipeline });
  });
  methodNotAllowed(app, `${P}/sources`, ['POST']);
}

/** The ground truth the chat rules compare with: leads, notifications, hooks, conversations and messages of a chat. */
function groundTruth(app: FastifyInstance, _ctx: EmulatorContext, state: ChatState): void {
  // Filters: scope_id and conversation_id, each optional; answers in creation order.
  const filtered = <T extends { scope_id: string; conversation_id: string }>(list: readonly T[], q: unknown): T[] => {
    const scope = query(q, 'scope_id');
    const conv = query(q, 'conversation_id');
    return list.filter((x) => (scope === undefined || x.scope_id === scope) && (conv === undefined || x.conversation_id === conv));
  };
  app.get(`${P}/unsorted`, async (request, reply) => json(reply, 200, { leads: filtered(state.leads, request.query) }));
  methodNotAllowed(app, `${P}/unsorted`, ['GET']);
  app.get(`${P}/notifications`, async (request, reply) => json(reply, 200, { notifications: filtered(state.notifications, request.query) }));
  methodNotAllowed(app, `${P}/notifications`, ['GET']);
  app.get(`${P}/hooks`, async (request, reply) => json(reply, 200, { hooks: filtered(state.hooks, request.query) }));
  methodNotAllowed(app, `${P}/hooks`, ['GET']);

  app.get(`${P}/conversations`, async (request, reply) => {
    const scope = query(request.query, 'scope_id');
    const conv = query(request.query, 'conversation_id');
    if (!scope || !conv) throw badRequest('`scope_id` and `conversation_id` are required query parameters');
    const chat = chatFor(state, scope, conv);
    if (!chat) throw new ProblemError({ status: 404, detail: 'no chat for this scope_id and conversation_id' });
    return json(reply, 200, {
      chat_id: chat.id,
      conversations: [
        { kind: 'private', message_count: chat.messages.length },
        ...[...chat.comments.entries()].map(([postId, list]) => ({ kind: 'post', post_id: postId, message_count: list.length })),
      ],
    });
  });
  methodNotAllowed(app, `${P}/conversations`, ['GET']);

  // The per-message ground truth the account keeps: type, text, sender, times, delivery status (§3.3), reactions (§4.3), the shared
  // post with its stored preview (§2.8) and the resolved quotes (§2.11); private messages in order, then comments.
  app.get(`${P}/messages`, async (request, reply) => {
    const scope = query(request.query, 'scope_id');
    const conv = query(request.query, 'conversation_id');
    if (!scope || !conv) throw badRequest('`scope_id` and `conversation_id` are required query parameters');
    const chat = chatFor(state, scope, conv);
    if (!chat) throw new ProblemError({ status: 404, detail: 'no chat for this scope_id and conversation_id' });
    const comments = [...chat.comments.values()].flat().sort((x, y) => x.seq - y.seq);
    return json(reply, 200, {
      messages: [...chat.messages, ...comments].map((m) => ({
        id: m.id, msgid: m.clientId, type: m.content.type, text: m.content.text, ...(m.postId !== undefined && { post_id: m.postId }),
        sender: senderView(m.sender), timestamp: m.timestamp, msec_timestamp: m.msecTimestamp,
        delivery_status: m.status ? { status_code: m.status.code, ...(m.status.errorCode !== undefined && { error_code: m.status.errorCode }), ...(m.status.error !== undefined && { error: m.status.error }) } : null,
        reactions: [...m.reactions.entries()].map(([user_id, emoji]) => ({ user_id, emoji })),
        ...(m.sharedPost && { shared_post: sharedPostView(m.sharedPost) }),
        reply_to: m.replyTo ? { message: quoteView(m.replyTo) } : null,
        forwards: (m.forwards ?? []).map(quoteView),
      })),
    });
  });
  methodNotAllowed(app, `${P}/messages`, ['GET']);
}

function accountMessage(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  // A manager writes in the chat from the account: the channel's outgoing-message hook is sent while connected (§3.2, §6).
  app.post(`${P}/account-message`, async (request, reply) => {
    const body = controlBody(request.body);
    const scopeId = requiredString(body, 'scope_id');
    const conversationId = requiredString(body, 'conversation_id');
    const text = requiredString(body, 'text');
    const conn = state.connections.get(scopeId);
    const chat = chatFor(state, scopeId, conversationId);
    if (!conn || !chat) throw new ProblemError({ status: 404, detail: 'no chat for this scope_id and conversation_id' });
    const live = conn.connected || ctx.faults.isOn('chat-hooks-after-disconnect');
    const msgid = randomUUID();
    const manager = conn.account.userIds[0] ?? '';
    const hook = (): HookRecord => {
      const version = hookVersionOf(state, conn, ctx.faults);
      const shape = version === 'v2' && ctx.faults.isOn('chat-hook-v2-payload-v1-shape') ? 'v1' : version;
      return hookRecord(version, { conn, chat, msgid, managerId: manager, text, nowMs: ctx.clock.nowMs() }, shape);
    };
    if (live) sendHook(state.hooks, hook(), ctx.variations);
    // A queue that still delivers what was due to a disconnected channel, a moment after the answer said none was sent.
    else if (ctx.faults.isOn('chat-hook-late-after-disconnect')) setTimeout(() => state.hooks.push(hook()), LATE_HOOK_MS).unref();
    return json(reply, 200, { msgid, hook_sent: live });
  });
  methodNotAllowed(app, `${P}/account-message`, ['POST']);
}

function writeFirst(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  // A manager starts a chat from the account (write-first): the chat exists on the account side only, known by its id.
  app.post(`${P}/write-first`, async (request, reply) => {
    const body = controlBody(request.body);
    const scopeId = requiredString(body, 'scope_id');
    const text = requiredString(body, 'text');
    const conn = state.connections.get(scopeId);
    if (!conn) throw new ProblemError({ status: 404, detail: 'no channel connection for this scope_id' });
    const manager = conn.account.userIds[0];
    if (manager === undefined) throw new ProblemError({ status: 404, detail: 'the account has no user to write first' });
    const chat = state.writeFirstChat(conn, { id: randomUUID(), name: optionalString(body, 'contact_name') ?? 'Write-first contact', avatar: '' });
    const now = ctx.clock.nowSeconds();
    const m: StoredMessage = {
      id: randomUUID(), clientId: randomUUID(), chat, seq: state.nextSeq(), timestamp: now, msecTimestamp: now * 1000,
      sender: { id: manager, name: 'Manager', avatar: '' }, receiver: chat.user, content: { type: 'text', text }, reactions: new Map(),
    };
    state.indexMessage(conn, m);
    insertInOrder(chat.messages, m);
    return json(reply, 200, { chat_id: chat.id, msgid: m.clientId });
  });
  methodNotAllowed(app, `${P}/write-first`, ['POST']);
}
