/**
 * Multi-request steps of the chat interface (§4.3) shared by the chat rules. A session signs every request with
 * the channel secret and a `Date` read from the target's clock (through the control API when there is one, once
 * per session), connects the channel once, and gives each rule its own conversations (ids carry the run id).
 * A step the target answers otherwise than the spec states throws TargetAnswer, naming the rule that judges it.
 */
import { randomUUID } from 'node:crypto';
import { briefBody } from '../checks/status.js';
import { parseJson } from '../checks/json.js';
import {
  chatPaths, chatRequest, connectBody, createChatBody, newMessageBody, sampleMessage,
  type ChatCall, type MessagePayload, type OnWire, type ParticipantBody, type SignAs,
} from '../protocol/chat.js';
import type { RuleContext } from '../model/context.js';
import { ControlError, SkipRule, TargetAnswer } from '../errors.js';
import { STEP_OWNERS } from './owners.js';
import type { HttpResponse } from '../model/http.js';
import type { Check } from '../model/check.js';
import { fail, pass } from '../model/outcome.js';
import type { HookApiVersion } from '../model/target.js';
import { isSuccess } from '../model/http.js';
import type { HistoryItem } from '../protocol/answers.js';
import { POLICY_EFFECT_WINDOW_MS } from '../model/readings.js';
import { WrittenMessages } from './chat-written.js';

export interface ChannelCredentials {
  readonly channelId: string;
  readonly secret: string;
  readonly accountId: string;
  readonly botId?: string;
  readonly managerUserId?: string;
  /** The hook version whose address the channel's settings hold, which its connects ask for (default v1, §2.4). */
  readonly hookApiVersion?: HookApiVersion;
}

export interface SendOptions {
  readonly sign?: SignAs;
  readonly wire?: OnWire;
  readonly zone?: 'GMT' | number;
  /** Milliseconds added to the Date header's time. */
  readonly skewMs?: number;
  /** Sign with another channel's secret (or a wrong one). */
  readonly secret?: string;
}

/** The channel of the target's settings (CHANNEL_ID, CHANNEL_SECRET, CHAT_ACCOUNT_ID), or skipped with the reason. */
export function configuredChannel(t: RuleContext): ChannelCredentials {
  const c = t.credentials;
  const missing = (['channelId', 'channelSecret', 'chatAccountId'] as const).filter((k) => !c[k]);
  if (missing.length > 0) {
    const keys = { channelId: 'CHANNEL_ID', channelSecret: 'CHANNEL_SECRET', chatAccountId: 'CHAT_ACCOUNT_ID' };
    throw new SkipRule(`the chat channel is not configured: set ${missing.map((k) => keys[k]).join(', ')}`);
  }
  return {
    channelId: c.channelId!, secret: c.channelSecret!, accountId: c.chatAccountId!, ...(c.botId && { botId: c.botId }), ...(c.managerUserId && { managerUserId: c.managerUserId }),
    ...(c.channelHookApiVersion && { hookApiVersion: c.channelHookApiVersion }),
  };
}

/** A unique id for this rule's data on a shared target. */
export function uniqueId(t: RuleContext, prefix: string): string {
  return `${prefix}-${t.runId}-${randomUUID().slice(0, 8)}`;
}

export class ChatSession {
  #scopeId: string | undefined;
  #seq = 0;
  /** The new messages the server accepted: a history read waits for them (`allHistory`). */
  readonly written = new WrittenMessages();

  /**
   * `shared`: a session on the configured channel, whose connection every rule of the run uses as it is (rules that
   * disconnect, or connect with other settings, take a channel of their own): its scope_id is read once per run.
   */
  constructor(readonly t: RuleContext, readonly channel: ChannelCredentials, private readonly clockOffsetMs: number, private readonly shared = false) {}

  /** The target's current time as this session knows it. */
  now(): Date {
    return new Date(Date.now() + this.clockOffsetMs);
  }

  send(call: ChatCall, o: SendOptions = {}): Promise<HttpResponse> {
    const now = new Date(this.now().getTime() + (o.skewMs ?? 0));
    return this.t.send(chatRequest(call, {
      chatUrl: this.t.target.chatUrl, secret: o.secret ?? this.channel.secret, now,
      ...(o.zone !== undefined && { zone: o.zone }), ...(o.sign && { sign: o.sign }), ...(o.wire && { wire: o.wire }),
    }));
  }

  /** The hook version this channel's connects ask for: the one its settings hold an address for (§2.4's default v1). */
  get hookApiVersion(): HookApiVersion {
    return this.channel.hookApiVersion ?? 'v1';
  }

  /** A connect body for this channel: `accountId` (default the channel's), its own hook version, then `extra`. */
  connectBody(extra: Record<string, unknown> = {}, accountId = this.channel.accountId): Record<string, unknown> {
    return connectBody(accountId, extra, this.hookApiVersion);
  }

  connect(extra: Record<string, unknown> = {}, o: SendOptions = {}, accountId = this.channel.accountId): Promise<HttpResponse> {
    return this.send({ method: 'POST', path: chatPaths.connect(this.channel.channelId), json: this.connectBody(extra, accountId) }, o);
  }

  disconnect(accountId = this.channel.accountId): Promise<HttpResponse> {
    return this.send({ method: 'DELETE', path: chatPaths.disconnect(this.channel.channelId), json: { account_id: accountId } });
  }

  /**
   * Connects once and remembers the scope_id, or TargetAnswer. On the configured channel once per run: connecting a
   * connected channel gives that connection (§2.4), so a connect per rule would only spend the chat interface's budget.
   */
  async scope(): Promise<string> {
    if (this.#scopeId) return this.#scopeId;
    const { channelId, accountId } = this.channel;
    this.#scopeId = this.shared
      ? (await this.t.resource(`chat scope ${channelId} ${accountId}`, async () => ({ scopeId: await this.#connectScope(), close: async () => {} }))).scopeId
      : await this.#connectScope();
    return this.#scopeId;
  }

  async #connectScope(): Promise<string> {
    const res = await this.connect();
    const scopeId = (parseJson(res) as { scope_id?: unknown } | undefined)?.scope_id;
    if (!isSuccess(res.status) || typeof scopeId !== 'string') throw new TargetAnswer(STEP_OWNERS.connect, `connecting the channel gave no scope_id (status ${res.status}${briefBody(res)})${versionHint(res, this.hookApiVersion)}`);
    return scopeId;
  }

  /** Connects with these body fields (hook_api_version, title…) and remembers the scope_id, or TargetAnswer. */
  async connectWith(extra: Record<string, unknown>): Promise<string> {
    const res = await this.connect(extra);
    const scopeId = (parseJson(res) as { scope_id?: unknown } | undefined)?.scope_id;
    if (!isSuccess(res.status) || typeof scopeId !== 'string') throw new TargetAnswer(STEP_OWNERS.connect, `connecting the channel with ${JSON.stringify(extra)} gave no scope_id (status ${res.status}${briefBody(res)})`);
    this.#scopeId = scopeId;
    return scopeId;
  }

  forgetScope(): void {
    this.#scopeId = undefined;
  }

  conversationId(): string {
    return uniqueId(this.t, 'conv');
  }

  msgid(): string {
    this.#seq += 1;
    return `m${this.#seq}-${randomUUID().slice(0, 8)}`;
  }

  /** A client of this run: his name carries the run id, as the contact of the unsorted lead his first message makes will (`conformance clean` finds them by it). */
  client(name = `Client ${this.t.runId}`): ParticipantBody {
    return { id: uniqueId(this.t, 'client'), name };
  }

  manager(name = 'Manager'): ParticipantBody {
    if (!this.channel.managerUserId) throw new SkipRule('no account user id for manager messages: set MANAGER_USER_ID');
    return { id: `manager-${this.channel.managerUserId}`, ref_id: this.channel.managerUserId, name };
  }

  bot(name = 'Bot'): ParticipantBody {
    if (!this.channel.botId) throw new SkipRule('no bot id for bot messages: set BOT_ID');
    return { id: `bot-${this.channel.botId}`, ref_id: this.channel.botId, name };
  }

  async createChat(conversationId: string, user: ParticipantBody, extra: Record<string, unknown> = {}): Promise<HttpResponse> {
    return this.send({ method: 'POST', path: chatPaths.chats(await this.scope()), json: createChatBody(conversationId, user, extra) });
  }

  /** Create chat with any body (the object rules send broken ones). */
  async postChats(body: unknown): Promise<HttpResponse> {
    return this.send({ method: 'POST', path: chatPaths.chats(await this.scope()), json: body });
  }

  /** A text payload of an incoming message from `sender`, timestamps from the session clock (or `at`, ms). */
  payload(conversationId: string, sender: ParticipantBody, over: Partial<MessagePayload> = {}, at?: number): MessagePayload {
    const ms = at ?? this.now().getTime();
    return { timestamp: Math.floor(ms / 1000), msec_timestamp: ms, conversation_id: conversationId, msgid: this.msgid(), sender, message: sampleMessage('text', 'hello'), silent: false, ...over };
  }

  async postEvent(body: unknown, o: SendOptions = {}): Promise<HttpResponse> {
    const path = chatPaths.message(await this.scope());
    const sentAt = Date.now();
    const res = await this.send({ method: 'POST', path, json: body }, o);
    // What a correctly signed write the server accepted makes the history show later (allHistory waits for it).
    if (isSuccess(res.status) && !o.sign && !o.secret && !o.wire) {
      const { event_type: event, payload } = (body ?? {}) as { event_type?: unknown; payload?: MessagePayload };
      if (event === 'new_message' && payload) this.written.accepted(payload, (parseJson(res) as { new_message?: { msgid?: unknown } } | undefined)?.new_message?.msgid);
      if (event === 'edit_message' && payload) this.written.edited(payload, { sentAt, answeredAt: Date.now() });
    }
    return res;
  }

  sendMessage(payload: MessagePayload, o: SendOptions = {}): Promise<HttpResponse> {
    return this.postEvent(newMessageBody(payload), o);
  }

  /** Sends a message that the rule needs to have gone through (a step, not the observation): TargetAnswer otherwise. */
  async mustSend(payload: MessagePayload): Promise<{ msgid: string; id: string }> {
    const res = await this.sendMessage(payload);
    const id = (parseJson(res) as { new_message?: { msgid?: unknown } } | undefined)?.new_message?.msgid;
    if (!isSuccess(res.status)) throw new TargetAnswer(STEP_OWNERS.sendMessage, `sending a message answered ${res.status}${briefBody(res)}`);
    return { msgid: payload.msgid, id: typeof id === 'string' ? id : '' };
  }

  async history(conversationId: string, query: { offset?: number; limit?: number } = {}, o: SendOptions = {}): Promise<HttpResponse> {
    return this.send({ method: 'GET', path: chatPaths.history(await this.scope(), conversationId, query) }, o);
  }

  async deliveryStatus(msgid: string, body: unknown): Promise<HttpResponse> {
    return this.send({ method: 'POST', path: chatPaths.deliveryStatus(await this.scope(), msgid), json: body });
  }

  async typing(body: unknown): Promise<HttpResponse> {
    return this.send({ method: 'POST', path: chatPaths.typing(await this.scope()), json: body });
  }

  async react(body: unknown): Promise<HttpResponse> {
    return this.send({ method: 'POST', path: chatPaths.react(await this.scope()), json: body });
  }

  /**
   * Every message of a conversation, page by page (limit 50), read again while `until` does not hold: the spec says a
   * message is "accepted for processing", so a target may show it a while later (POLICY_EFFECT_WINDOW_MS, docs/verdicts.md).
   * After the window, what the history holds then: the rule judges what is missing. Whatever `until` asks, the read
   * waits for every message this session saw accepted in the conversation (`written`).
   */
  async allHistory(conversationId: string, until: (items: HistoryItem[]) => boolean = () => true): Promise<HistoryItem[]> {
    const done = (items: HistoryItem[]) => this.written.allShown(conversationId, items) && until(items);
    return (await this.t.eventually(() => this.readPages(conversationId, 50, done), { within: POLICY_EFFECT_WINDOW_MS, until: done })).value;
  }

  /**
   * The history, page by page. A page shorter than the limit is the end (offset and limit page the records, §4.3): the
   * reader does not ask past it, where a server may refuse (issue 28 §2). Only when what was read lacks what the rule
   * waits for (`enough`) does it read on from where a short, non-empty page ended (a server may answer fewer, C52),
   * and an answer there that is not a page ends the reading instead of the rule.
   */
  async readPages(conversationId: string, limit = 50, enough: (items: HistoryItem[]) => boolean = () => true): Promise<HistoryItem[]> {
    const out: HistoryItem[] = [];
    let pastShortPage = false;
    const seen = new Set<string>();
    for (let offset = 0; offset < 10_000;) {
      const res = await this.history(conversationId, { offset, limit });
      if (res.status === 204) break;
      const page = isSuccess(res.status) ? (parseJson(res) as { messages?: unknown } | undefined)?.messages : undefined;
      if (!Array.isArray(page)) {
        if (pastShortPage) break;
        throw new TargetAnswer(STEP_OWNERS.history, isSuccess(res.status) ? `the history answered ${res.status} without a messages array` : `reading the history answered ${res.status}${briefBody(res)}`);
      }
      out.push(...(page as HistoryItem[]));
      if (page.length === 0) break;
      // A page that repeats one already read (a server that ignores offset) ends the reading: what was read then holds
      // the repeat, which the history checks judge, without asking for thousands of pages more (issue 39 item 5).
      const shown = JSON.stringify(page);
      if (seen.has(shown)) break;
      seen.add(shown);
      if (page.length < limit) {
        if (enough(out)) break;
        pastShortPage = true;
      }
      offset += page.length;
    }
    return out;
  }
}

/** A session on the configured channel. The target's clock is read once through the control API when there is one. */
export async function chatSession(t: RuleContext, channel?: ChannelCredentials): Promise<ChatSession> {
  const cached = channel ? undefined : SESSIONS.get(t);
  if (cached) return cached;
  let offset = 0;
  if (t.target.capabilities.includes('control')) offset = (await t.control.now()) * 1000 - Date.now() + 500;
  const session = new ChatSession(t, channel ?? configuredChannel(t), offset, channel === undefined);
  if (!channel) SESSIONS.set(t, session);
  return session;
}

/** One session per rule on the configured channel: property cases share its scope and clock reading. */
const SESSIONS = new WeakMap<RuleContext, ChatSession>();

/**
 * A channel of its own for a rule that disconnects it (registered through the control API with a fresh secret),
 * so that rules sharing the configured channel are not disturbed; `hookVersions` limits the hook addresses its
 * settings hold (§2.4), both by default.
 */
export async function ownChannel(t: RuleContext, o: { readonly hookVersions?: readonly ('v1' | 'v2')[] } = {}): Promise<ChatSession> {
  const base = configuredChannel(t);
  const secret = `${randomUUID()}${randomUUID()}`.replace(/-/g, '');
  t.masker.add(secret);
  // A channel with both addresses asks for the configured channel's version, as every connect of the run does.
  const hookApiVersion = o.hookVersions && !o.hookVersions.includes(base.hookApiVersion ?? 'v1') ? o.hookVersions[0]! : base.hookApiVersion;
  const made = await t.control.call<{ id: string; bot_id: string }>('POST', '/chat/channels', {
    secret, ...(o.hookVersions ? { name: `Hooks ${o.hookVersions.join('+')} ${t.runId}`, hook_versions: o.hookVersions } : { name: `Channel ${t.runId}` }),
  });
  return chatSession(t, { channelId: made.id, secret, accountId: base.accountId, botId: made.bot_id, ...(base.managerUserId && { managerUserId: base.managerUserId }), ...(hookApiVersion && { hookApiVersion }) });
}

/** The chat-interface id of another account than the configured one (for isolation), through the control API. */
export async function otherAccountId(t: RuleContext, mine: string): Promise<string> {
  const info = await t.control.call<{ accounts?: { amojo_id: string }[] }>('GET', '/chat');
  const other = info.accounts?.find((a) => a.amojo_id !== mine);
  if (!other) throw new SkipRule('the control API names no second chat account (GET /_control/chat accounts)');
  return other.amojo_id;
}

/** A manager writes in the conversation from the account, simulated through the control API (it sends the hook). */
export async function accountMessage(s: ChatSession, conversationId: string): Promise<void> {
  await s.t.control.call('POST', '/chat/account-message', { scope_id: await s.scope(), conversation_id: conversationId, text: 'from the account' });
}

/** How many outgoing-message hooks the control API has seen sent for a scope. */
export async function chatHookCount(t: RuleContext, scopeId: string): Promise<number> {
  return (await t.control.call<{ hooks: unknown[] }>('GET', `/chat/hooks?scope_id=${encodeURIComponent(scopeId)}`)).hooks.length;
}

/** The numeric account id the control API gives a chat account, for calls that name accounts by it. */
export async function numericAccountId(t: RuleContext, chatAccountId: string): Promise<number | undefined> {
  const info = await t.control.call<{ accounts: { id: number; amojo_id: string }[] }>('GET', '/chat');
  return info.accounts.find((a) => a.amojo_id === chatAccountId)?.id;
}

/** The user disconnects the integration in an account (control API); skipped when the control API cannot. */
export async function disconnectIntegration(t: RuleContext, accountId: number | undefined): Promise<void> {
  try {
    await t.control.call('POST', '/disconnect', { account_id: accountId });
  } catch (err) {
    if (err instanceof ControlError && (err.status === 404 || err.status === 405)) throw new SkipRule('the control API has no integration disconnect (POST /_control/disconnect)');
    throw err;
  }
}

/**
 * The line a connect refused for its hook version gets (§2.4: "The hook address for that version must be set in the
 * channel settings"), naming the setting that chose the version; empty for another refusal. A refusal of the request's
 * signature (401, 403), of its channel (404) or of its rate (429) is not about the version.
 */
export function versionHint(res: HttpResponse, version: HookApiVersion): string {
  if (res.status < 400 || res.status >= 500 || [401, 403, 404, 429].includes(res.status)) return '';
  return `; ${versionRefusalLine(version)}`;
}

/**
 * The connect's own rule names the setting too: a connect refused with a 4xx other than a signature or channel refusal
 * fails with the line that says which version CHANNEL_HOOK_API_VERSION made it ask for (the status check says the rest).
 */
export function connectVersionNamed(version: HookApiVersion): Check {
  return (res) => {
    const hint = versionHint(res, version);
    return hint ? fail('hook version', hint.slice(2)) : pass('hook version', `status ${res.status}: not a refusal of the version`);
  };
}

/** One line for a connect of the configured channel refused for its version: what was asked, and the setting to change. */
export function versionRefusalLine(version: HookApiVersion): string {
  const asked = version === 'v1' ? 'hook_api_version v1 (CHANNEL_HOOK_API_VERSION is unset or v1; v1 is §2.4\'s default)' : 'hook_api_version v2 (CHANNEL_HOOK_API_VERSION=v2)';
  return `the connect asked for ${asked}: if the channel's settings hold no hook address for it, set CHANNEL_HOOK_API_VERSION to the version they hold`;
}
