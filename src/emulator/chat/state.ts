/**
 * The chat interface's state for one emulator instance: registered channels, channel connections (scopes), chats,
 * messages, comments, unsorted leads, notifications and outgoing-message hooks. Lookups are indexed (by scope and
 * conversation, by message id and integration-side msgid), never scans. Cleared on a control reset; an integration
 * disconnect (§6 last line, §3.2) disconnects that account's channel connections.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { VariationName } from '../variations.js';
import type { FaultName } from '../faults.js';
import type { EmulatorContext } from '../context.js';
import { isInstalled } from '../oauth/lifecycle.js';
import type { MessageIn, ParticipantIn } from './validate.js';
import type { StoredQuote, StoredSharedPost } from './stored.js';

export const DEFAULT_PIPELINE_ID = 1001;

export interface ChannelRecord {
  readonly id: string;
  readonly secret: string;
  readonly botId: string;
  readonly name: string;
  /** The hook versions whose address the channel's settings hold (§2.4); every version when not said. */
  readonly hookVersions?: readonly ('v1' | 'v2')[];
  /** The channel's reply time window (§2.4), seconds after the client's last message; none when not said. */
  readonly replyWindowS?: number;
}

export interface ChatAccount {
  readonly accountId: number;
  readonly amojoId: string;
  /** Account users a manager message may name as `sender.ref_id`. */
  readonly userIds: readonly string[];
}

export interface Connection {
  readonly scopeId: string;
  readonly channel: ChannelRecord;
  readonly account: ChatAccount;
  title: string;
  hookApiVersion: 'v1' | 'v2';
  isTimeWindowDisabled: boolean;
  connected: boolean;
  /** Disconnected because the integration was disconnected in the account (§3.2 last row), not by the channel's DELETE. */
  leftWithIntegration: boolean;
}

export interface Person {
  /** Chat-interface id. */
  readonly id: string;
  /** Integration-side id; absent for account users and the bot. */
  readonly clientId?: string;
  name: string;
  avatar: string;
  phone?: string;
  email?: string;
}

export interface StoredMessage {
  readonly id: string;
  clientId: string;
  readonly chat: Chat;
  /** `undefined` for the private conversation, else the commented post's id. */
  readonly postId?: string;
  readonly seq: number;
  readonly timestamp: number;
  readonly msecTimestamp: number;
  /** When the emulator received it (ms): what the `chat-history-receive-time` variation shows instead of the send time. */
  readonly receivedMs?: number;
  readonly sender: Person;
  readonly receiver?: Person;
  content: MessageIn;
  status?: { code: number; errorCode?: number; error?: string };
  reactions: Map<string, string>;
  /** §2.8: the shared post as the account keeps it (the preview downloaded or the permalink). */
  readonly sharedPost?: StoredSharedPost;
  /** §2.11: the quoted message, resolved when it was named by id or msgid. */
  readonly replyTo?: StoredQuote;
  readonly forwards?: readonly StoredQuote[];
}

export interface Chat {
  readonly id: string;
  /** Empty for a chat the account started by write-first until a client's reply links one (§4.3 conversation_ref_id). */
  conversationId: string;
  readonly scopeId: string;
  readonly user: Person;
  sourceExternalId?: string;
  messages: StoredMessage[];
  readonly comments: Map<string, StoredMessage[]>;
  leadId?: number;
  /** When the client's last incoming message arrived (emulator clock, seconds): the reply window counts from it (§2.4). */
  lastIncomingAt?: number;
}

export interface UnsortedLead {
  readonly id: number;
  readonly scope_id: string;
  readonly account_id: string;
  readonly chat_id: string;
  readonly conversation_id: string;
  readonly pipeline_id: number;
  readonly source_external_id: string | null;
  readonly contact: { name: string; phone?: string; email?: string };
  readonly created_at: number;
}

export interface Notification {
  readonly id: number;
  readonly scope_id: string;
  readonly chat_id: string;
  readonly conversation_id: string;
  readonly msgid: string;
  readonly text: string;
  readonly created_at: number;
}

export interface HookRecord {
  readonly channel_id: string;
  readonly scope_id: string;
  readonly hook_api_version: string;
  readonly conversation_id: string;
  readonly msgid: string;
  readonly text: string;
  readonly sent_at: number;
  /** The hook's body as sent (src/emulator/chat/outgoing-hook.ts: the emulator's v1 and v2 shapes). */
  readonly payload: Record<string, unknown>;
}

export class ChatState {
  readonly channels = new Map<string, ChannelRecord>();
  readonly accounts = new Map<string, ChatAccount>();
  readonly connections = new Map<string, Connection>();
  /** `<namespace>|<conversation_id>` → chat; the namespace is the scope (the channel under the isolation fault). */
  readonly chatsByConversation = new Map<string, Chat>();
  readonly chatsById = new Map<string, Chat>();
  /** `<namespace>|<id or msgid>` → message. */
  readonly messages = new Map<string, StoredMessage>();
  /** `<scope>|<client id>` → person. */
  readonly people = new Map<string, Person>();
  /** `<amojo account id>|<external_id>` → pipeline id. */
  readonly sources = new Map<string, number>();
  readonly leads: UnsortedLead[] = [];
  readonly notifications: Notification[] = [];
  readonly hooks: HookRecord[] = [];
  /** Channel id → the hook version its latest connect chose (only the `chat-hook-version-per-channel` fault reads it). */
  readonly lastHookVersion = new Map<string, 'v1' | 'v2'>();
  #seq = 0;
  #leadId = 5_000_000;

  constructor(private readonly ctx: EmulatorContext) {
    this.reset();
  }

  reset(): void {
    for (const m of [this.channels, this.accounts, this.connections, this.chatsByConversation, this.chatsById, this.messages, this.people, this.sources, this.lastHookVersion]) m.clear();
    this.leads.length = 0;
    this.notifications.length = 0;
    this.hooks.length = 0;
    const { world } = this.ctx;
    const ch = world.channel;
    this.channels.set(ch.id, { id: ch.id, secret: ch.secret, botId: ch.botId, name: ch.name });
    for (const a of chatAccountsOf(this.ctx)) this.accounts.set(a.amojoId, a);
  }

  nextSeq(): number {
    return ++this.#seq;
  }

  nextLeadId(): number {
    return ++this.#leadId;
  }

  /** Chats and messages of different scopes never meet, unless the isolation fault keys them by channel. */
  namespace(conn: Connection): string {
    if (this.ctx.faults.isOn('chat-scope-not-isolated')) return conn.channel.id;
    // The channel isolation fault: keyed by account, so two channels connected in one account share their chats.
    return this.ctx.faults.isOn('chat-channel-not-isolated') ? conn.account.amojoId : conn.scopeId;
  }

  /** Whether a fault is on (./faults.ts). */
  faultOn(name: FaultName): boolean {
    return this.ctx.faults.isOn(name);
  }

  /** Whether an allowed variation is on (./variations.ts). */
  variationOn(name: VariationName): boolean {
    return this.ctx.variations.isOn(name);
  }

  /** The channel whose secret signs a request to this scope: from the connection, or the scope id's prefix. */
  channelOfScope(scopeId: string): ChannelRecord | undefined {
    const conn = this.connections.get(scopeId);
    if (conn) return conn.channel;
    const cut = scopeId.indexOf('_');
    return cut > 0 ? this.channels.get(scopeId.slice(0, cut)) : undefined;
  }

  /** The channel's one connection for the account, under `scopeId` (another than the usual only for the connect race fault). */
  connect(channel: ChannelRecord, account: ChatAccount, opts: { title?: string; hookApiVersion?: 'v1' | 'v2'; isTimeWindowDisabled?: boolean }, scopeId = scopeIdOf(channel, account)): Connection {
    let conn = this.connections.get(scopeId);
    if (!conn) {
      conn = { scopeId, channel, account, title: channel.name, hookApiVersion: 'v1', isTimeWindowDisabled: false, connected: true, leftWithIntegration: false };
      this.connections.set(scopeId, conn);
    }
    conn.connected = true;
    conn.leftWithIntegration = false;
    conn.title = opts.title ?? channel.name;
    // §2.4: without hook_api_version the connection takes the default v1, whatever an earlier connect chose.
    conn.hookApiVersion = opts.hookApiVersion ?? (this.ctx.faults.isOn('chat-connect-keeps-hook-version') ? conn.hookApiVersion : 'v1');
    this.lastHookVersion.set(channel.id, conn.hookApiVersion);
    conn.isTimeWindowDisabled = opts.isTimeWindowDisabled ?? false;
    return conn;
  }

  /** A client of the integration as the chat interface knows it: one chat-interface id per client id and scope. */
  /** Whether the integration has named a participant with this id under the connection (a sender, a chat's user). */
  hasClient(conn: Connection, clientId: string): boolean {
    return this.people.has(`${this.namespace(conn)}|${clientId}`);
  }

  client(conn: Connection, p: ParticipantIn): Person {
    const key = `${this.namespace(conn)}|${p.id}`;
    let person = this.people.get(key);
    if (!person) {
      person = { id: randomUUID(), clientId: p.id, name: p.name, avatar: p.avatar ?? '' };
      this.people.set(key, person);
    }
    if (p.name) person.name = p.name;
    if (p.avatar !== undefined) person.avatar = p.avatar;
    if (p.phone !== undefined) person.phone = p.phone;
    if (p.email !== undefined) person.email = p.email;
    return person;
  }

  chatOf(conn: Connection, conversationId: string): Chat | undefined {
    return this.chatsByConversation.get(`${this.namespace(conn)}|${conversationId}`);
  }

  /** A chat by the integration's conversation id or by the chat interface's chat id (docs/field-notes.md: clients use either). */
  chatByEitherId(conn: Connection, id: string): Chat | undefined {
    const byConversation = this.chatOf(conn, id);
    if (byConversation) return byConversation;
    const byId = this.chatsById.get(id);
    // The isolation fault: a chat-interface chat id is taken as unique, whichever scope holds the chat.
    if (byId && this.ctx.faults.isOn('chat-chat-id-any-scope')) return byId;
    return byId && this.namespace(conn) === this.namespace(this.connections.get(byId.scopeId) ?? conn) ? byId : undefined;
  }

  /** A chat the account starts (write-first): known by its chat-interface id only until a reply links it. */
  writeFirstChat(conn: Connection, user: Person): Chat {
    const chat: Chat = { id: randomUUID(), conversationId: '', scopeId: conn.scopeId, user, messages: [], comments: new Map() };
    this.chatsById.set(chat.id, chat);
    return chat;
  }

  /** Links a write-first chat to the integration's conversation id of the client's reply. */
  linkConversation(conn: Connection, conversationId: string, chat: Chat): void {
    chat.conversationId = conversationId;
    this.chatsByConversation.set(`${this.namespace(conn)}|${conversationId}`, chat);
  }

  newChat(conn: Connection, conversationId: string, user: Person, sourceExternalId?: string): Chat {
    // The variation: the chat id is derived from the channel and the conversation_id, the same in every account.
    const id = this.variationOn('chat-chat-ids-by-conversation') ? createHash('sha256').update(`${conn.channel.id}|${conversationId}`).digest('hex').slice(0, 32) : randomUUID();
    const chat: Chat = { id, conversationId, scopeId: conn.scopeId, user, messages: [], comments: new Map(), ...(sourceExternalId !== undefined && { sourceExternalId }) };
    this.chatsByConversation.set(`${this.namespace(conn)}|${conversationId}`, chat);
    this.chatsById.set(chat.id, chat);
    return chat;
  }

  message(conn: Connection, id: string): StoredMessage | undefined {
    return this.messages.get(`${this.namespace(conn)}|${id}`);
  }

  /**
   * A message named in a request member whose side the spec states: `chat` for a "message id on the chat-interface
   * side" (react and edit `id`, an embedded message's `id`), `integration` for one "on the integration side" (their
   * `msgid`). Either id finds it, unless the variation `chat-ids-as-named` resolves each member by its own side only.
   */
  messageNamed(conn: Connection, key: string, side: 'chat' | 'integration'): StoredMessage | undefined {
    const m = this.message(conn, key);
    if (!m || !this.variationOn('chat-ids-as-named')) return m;
    return (side === 'chat' ? m.id : m.clientId) === key ? m : undefined;
  }

  /** Only for the cross-scope faults: the message whose chat-interface id is `id`, in whichever scope holds it. */
  messageInAnyScope(id: string): { readonly conn: Connection; readonly m: StoredMessage } | undefined {
    for (const conn of this.connections.values()) {
      const m = this.message(conn, id);
      if (m?.id === id) return { conn, m };
    }
    return undefined;
  }

  indexMessage(conn: Connection, m: StoredMessage): void {
    const ns = this.namespace(conn);
    this.messages.set(`${ns}|${m.id}`, m);
    if (m.clientId) this.messages.set(`${ns}|${m.clientId}`, m);
  }

  pipelineFor(conn: Connection, externalId: string | undefined): number {
    if (externalId === undefined || this.ctx.faults.isOn('chat-source-ignored')) return DEFAULT_PIPELINE_ID;
    return this.sources.get(`${conn.account.amojoId}|${externalId}`) ?? DEFAULT_PIPELINE_ID;
  }

  /** §3.2 last row: the integration was disconnected in this account, so its channel connections are too. */
  disconnectAccount(accountId: number): number {
    let n = 0;
    for (const conn of this.connections.values()) {
      if (conn.account.accountId === accountId && conn.connected) { conn.connected = false; conn.leftWithIntegration = true; n += 1; }
    }
    return n;
  }

  /**
   * Whether messages may go through the connection. §3.2: after the integration is disconnected, the channel must be
   * connected again after each new installation; under the fault a new installation alone brings it back.
   */
  isConnected(conn: Connection): boolean {
    if (conn.connected) return true;
    const { ctx } = this;
    return ctx.faults.isOn('chat-reconnect-on-install') && conn.leftWithIntegration && isInstalled(ctx, ctx.world.integration.clientId, conn.account.accountId);
  }
}

/** docs/field-notes.md: `scope_id` is `<channel_id>_<account_id>`. */
export function scopeIdOf(channel: ChannelRecord, account: ChatAccount): string {
  return `${channel.id}_${account.amojoId}`;
}

/**
 * Every account of the world with a chat-interface id: the main account and the other accounts of its administrator
 * (a second account is what the isolation rules need), each with the user ids a manager message may name.
 */
function chatAccountsOf(ctx: EmulatorContext): ChatAccount[] {
  const { account, admin } = ctx.world;
  const others = (ctx.world as { otherAccounts?: readonly { id: number; amojoId: string }[] }).otherAccounts ?? [];
  return [account, ...others].map((a) => ({ accountId: a.id, amojoId: a.amojoId, userIds: [String(admin.id)] }));
}

const STATES = new WeakMap<EmulatorContext, ChatState>();

/** The chat state of one emulator instance, shared by the chat routes and the chat control routes. */
export function chatState(ctx: EmulatorContext): ChatState {
  let state = STATES.get(ctx);
  if (!state) {
    const created = new ChatState(ctx);
    state = created;
    STATES.set(ctx, created);
    // The channels registered and the accounts known when the baseline is marked come back on a reset (the settings
    // `conformance emulator` prints name registered channels); chats and messages never do.
    let baseline: { channels: Map<string, ChannelRecord>; accounts: Map<string, ChatAccount> } | undefined;
    ctx.onBaseline(() => { baseline = structuredClone({ channels: created.channels, accounts: created.accounts }); });
    ctx.onReset(() => {
      created.reset();
      if (!baseline) return;
      const copy = structuredClone(baseline);
      for (const [id, channel] of copy.channels) created.channels.set(id, channel);
      for (const [id, account] of copy.accounts) created.accounts.set(id, account);
    });
    ctx.onIntegrationDisconnected((accountId) => {
      if (!ctx.faults.isOn('chat-integration-disconnect-ignored')) created.disconnectAccount(accountId);
    });
  }
  return state;
}

/**
 * Keeps a chat's messages in time order (msec_timestamp, then arrival) as they come: appending is the usual case, an
 * imported older message goes in by binary search. History then reads pages from the end without sorting.
 */
export function insertInOrder(messages: StoredMessage[], m: StoredMessage): void {
  const after = (a: StoredMessage) => a.msecTimestamp > m.msecTimestamp || (a.msecTimestamp === m.msecTimestamp && a.seq > m.seq);
  const last = messages.at(-1);
  if (!last || !after(last)) {
    messages.push(m);
    return;
  }
  let lo = 0;
  let hi = messages.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (after(messages[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  messages.splice(lo, 0, m);
}

/** Newest first: `limit` messages after skipping `offset` from the newest. */
export function historyPage(messages: readonly StoredMessage[], offset: number, limit: number): StoredMessage[] {
  const page: StoredMessage[] = [];
  for (let i = messages.length - 1 - offset; i >= 0 && page.length < limit; i -= 1) page.push(messages[i]!);
  return page;
}
