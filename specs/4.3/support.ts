/**
 * What the rules of §4.3 share: fixtures, case tables and the makers of rule families.
 */
import {
  MESSAGE_TYPES, type ElementType, type NewMessageExpectation, sampleMessage, type TimedMessage, describeSpaceCase, namedSpaceCases, sendSpaceCase, spaceCaseArb, spaceCaseChecks, type SpaceCase, spaceFixture, type SpaceFixture, type SpaceRoute, VALID_SPACES, allowOn405, applyCase, type CaseReading, CHAT_BASE, CHAT_ROUTES, type ChatCall, type ChatRouteName, chatSession, ChatSession, type Conversation, conversationWith, editCarrying, editMessageBody, type FieldCase, fieldCaseArb, type FieldSpec, type ForeignChat, type ForwardSource, forwardSource, heldOnce, type HistoryItem, holdsMessages, type HttpResponse, ignoredOnEdit, isSuccess, jsonAt, chatErrorBody, chatBodyIsJson, type MessagePayload, messageTruth, type MessageTruth, noServerError, notJsonBodies, ODD_HISTORY_QUERIES, oddJsonBodies, type ParticipantBody, Precondition, refusalChecks, type RepeatSeen, routeCall, routeFixture, type RouteFixture, routeRequires, type RuleContext, type RuleDraft, scenarioRule, secondAccountId, type SentMessage, status, step, sweepCases, sweepRule, textIs, withInvalidUtf8, withInvalidUtf8At,
} from '../kit.js';
import { STEP_OWNERS, TargetAnswer } from '../kit.js';
import { type FreshConversation, freshConversation, INVALID_UTF8_READING, SEND } from '../fixtures/chat.js';

export const REACT = (f: string) => `4.3/Reaction/${f}`;

/** Answers a busy server may give some of many parallel requests: non_strict beside the 200s (C33). */
export const BUSY = [409, 429];

export async function chatIdOf(s: ChatSession, conv: string, user = s.client()): Promise<string> {
  const res = await s.createChat(conv, user);
  const id = jsonAt(res, 'id');
  if (!isSuccess(res.status) || typeof id !== 'string') throw new TargetAnswer(STEP_OWNERS.createChat, `creating a chat answered ${res.status}`);
  return id;
}

/** The history item of a msgid, or a failed finding saying it is missing. */
export function itemOf(items: readonly HistoryItem[], msgid: string): HistoryItem | undefined {
  return items.find((i) => i.message?.client_id === msgid);
}

export const CONNECT_FIELDS: readonly FieldSpec[] = [
  { path: ['account_id'], type: 'string' },
  { path: ['hook_api_version'], type: 'enum', values: ['v1', 'v2'] },
  { path: ['title'], type: 'string' },
  { path: ['is_time_window_disabled'], type: 'bool' },
];

/** A conversation holding one incoming message of a client, the message to edit. */
export interface Sent {
  readonly s: ChatSession;
  readonly conv: string;
  readonly client: ParticipantBody;
  readonly msgid: string;
  readonly id: string;
  /** The msgid the message is rebound to by an edit. */
  readonly next: string;
}

export async function sentMessage(t: Parameters<typeof chatSession>[0], over: Partial<MessagePayload> = {}): Promise<Sent> {
  const s = await chatSession(t);
  const conv = s.conversationId();
  const client = s.client('Original Client');
  const sent = await s.mustSend(s.payload(conv, client, over));
  return { s, conv, client, ...sent, next: s.msgid() };
}

/** A message to send to a chat created first, with what its answer must name: that chat and the user created for it. */
export interface AnswerTarget {
  readonly s: ChatSession;
  readonly payload: MessagePayload;
  /** The chat-interface id create chat answered for the message's conversation. */
  readonly chatId: string;
  /** The ids the sender may be answered by: the client's id sent, and the user id create chat answered. */
  readonly senderIds: readonly string[];
}

export async function answerTarget(t: RuleContext): Promise<AnswerTarget> {
  const s = await chatSession(t);
  const client = s.client();
  const conv = s.conversationId();
  const created = await s.createChat(conv, client);
  const chatId = jsonAt(created, 'id');
  const userId = jsonAt(created, ['user', 'id']);
  if (!isSuccess(created.status) || typeof chatId !== 'string') throw new TargetAnswer(STEP_OWNERS.createChat, `creating a chat answered ${created.status}`);
  // A later chat of the scope, so that an answer naming the scope's latest chat instead of the message's shows.
  await chatIdOf(s, s.conversationId());
  return { s, payload: s.payload(conv, client), chatId, senderIds: [client.id, ...(typeof userId === 'string' ? [userId] : [])] };
}

/** One message of each §4.3 kind sent to one conversation: its payload, its answer and what that answer must name. */
export interface KindSent {
  readonly kind: 'incoming' | 'manager' | 'bot';
  readonly payload: MessagePayload;
  readonly answer: HttpResponse;
  readonly expect: NewMessageExpectation;
}

/** The client's message, a manager's and the bot's (both to the client), a second apart, and the history that then holds them. */
export interface KindsConversation {
  readonly client: ParticipantBody;
  readonly kinds: readonly KindSent[];
  readonly sent: Readonly<Record<KindSent['kind'], MessagePayload>>;
  readonly items: readonly HistoryItem[];
}

export async function kindsSent(t: RuleContext): Promise<KindsConversation> {
  const { s, conv, client: bare } = await freshConversation(t);
  // Given an avatar and a profile, so that the history's sender and receiver can be compared with them.
  const client: ParticipantBody = { ...bare, avatar: 'https://files.example/avatar.png', profile: { phone: '+10000000001', email: 'client@example.com' } };
  const base = Date.now();
  const sent = {
    incoming: s.payload(conv, client, {}, base),
    manager: s.payload(conv, s.manager(), { receiver: client }, base + 1000),
    bot: s.payload(conv, s.bot(), { receiver: client }, base + 2000),
  };
  const answers: HttpResponse[] = [];
  for (const p of Object.values(sent)) answers.push(await s.sendMessage(p));
  const items = await s.allHistory(conv, (i) => i.length >= 3);
  // The answer's sender_id and receiver_id name the participants sent, by either side's id: the one sent, or the
  // chat-interface id the history shows for them (and a manager's or the bot's ref_id).
  const ids = (...xs: unknown[]) => xs.filter((x): x is string => typeof x === 'string');
  const kinds = (['incoming', 'manager', 'bot'] as const).map((kind, i): KindSent => {
    const p = sent[kind];
    const item = itemOf(items, p.msgid);
    return {
      kind, payload: p, answer: answers[i]!,
      expect: { msgid: p.msgid, conversationId: conv, outgoing: kind !== 'incoming', ...(item && { senderIds: ids(p.sender.id, p.sender.ref_id, item.sender?.id), receiverIds: ids(client.id, item.receiver?.id) }) },
    };
  });
  return { client, kinds, sent, items };
}

/** Two conversations of one client, a message in each: a reply may quote the first (same chat), not the second. */
export interface Quoting extends FreshConversation {
  readonly here: SentMessage;
  readonly there: SentMessage;
  /** The answer to the reply quoting by msgid, judged again for the quote by id when the message has no id. */
  byMsgid?: HttpResponse;
}

export async function quoting(t: RuleContext): Promise<Quoting> {
  const { s, conv, client } = await freshConversation(t);
  const other = s.conversationId();
  const here = await s.mustSend(s.payload(conv, client));
  return { s, conv, client, here, there: await s.mustSend(s.payload(other, client)) };
}

/** A reply in the conversation quoting `message` (by msgid or id). */
export const replyQuoting = (f: Quoting, message: { readonly msgid: string } | { readonly id: string }) =>
  f.s.sendMessage(f.s.payload(f.conv, f.client, { reply_to: { message } }));

/** Five messages imported an hour back, silent on all but the newest (§4.3 rule 2). */
export interface BulkImport {
  readonly s: ChatSession;
  readonly conv: string;
  /** The newest message, the one not silent. */
  readonly last: string;
}

export async function bulkImport(t: RuleContext): Promise<BulkImport> {
  const { s, conv, client } = await freshConversation(t);
  const start = Date.now() - 3_600_000;
  let last = '';
  for (let i = 0; i < 5; i += 1) last = (await s.mustSend(s.payload(conv, client, { silent: i < 4, message: sampleMessage('text', `imported ${i}`) }, start + i * 60_000))).msgid;
  return { s, conv, last };
}

/** Messages of one client to one conversation of a connected scope, a millisecond apart, to send all at once. */
export interface ParallelMessages {
  readonly s: ChatSession;
  readonly conv: string;
  readonly payloads: readonly MessagePayload[];
  /** The answers, once sent: a message the server refused for a rate limit (429) need not be in the history. */
  answers?: readonly HttpResponse[];
}

export async function parallelMessages(t: RuleContext, n: number): Promise<ParallelMessages> {
  const { s, conv, client } = await freshConversation(t);
  await s.scope();
  const base = Date.now();
  return { s, conv, payloads: Array.from({ length: n }, (_, i) => s.payload(conv, client, {}, base + i)) };
}

/** The history of the conversation, read until the message stored under `clientId` shows `text`. */
export const historyShowing = (clientId: string, text: string) => (_t: unknown, f: Sent): Promise<HistoryItem[]> =>
  f.s.allHistory(f.conv, (items) => items.some((i) => i.message?.client_id === clientId && i.message.text === text));

/** A conversation of one client and the messages the rule sent to it, each with what it was sent as. */
export interface SentMessages<M> {
  readonly s: ChatSession;
  readonly conv: string;
  readonly sent: readonly M[];
}

/** One message of each type whose history element carries fields of its own (text, file, location, contact). */
export async function oneOfEachType(t: RuleContext): Promise<SentMessages<{ readonly type: ElementType; readonly msgid: string }>> {
  const { s, conv, client } = await freshConversation(t);
  const sent = [];
  for (const type of ['text', 'picture', 'location', 'contact'] as const) sent.push({ type, ...(await s.mustSend(s.payload(conv, client, { message: sampleMessage(type, type === 'text' ? 'hi' : '') }))) });
  return { s, conv, sent };
}

/** Seven messages, a tenth of a second apart, once the history shows them all: more than two pages of three. */
export async function sevenMessages(t: RuleContext): Promise<SentMessages<string>> {
  const { s, conv, client } = await freshConversation(t);
  const sent: string[] = [];
  for (let i = 0; i < 7; i += 1) sent.push((await s.mustSend(s.payload(conv, client, {}, Date.now() - 10_000 + i * 100))).msgid);
  await s.allHistory(conv, (i) => i.length >= 7);
  return { s, conv, sent };
}

/** Three messages sent with message times out of their sending order, so that the history's order tells which it follows. */
export async function outOfOrder(t: RuleContext): Promise<SentMessages<TimedMessage>> {
  const { s, conv, client } = await freshConversation(t);
  const base = Date.now() - 60_000;
  const sent = [];
  for (const at of [2000, 0, 1000]) sent.push({ msgid: (await s.mustSend(s.payload(conv, client, {}, base + at))).msgid, at });
  return { s, conv, sent };
}

/** A session on a connected scope, and the chat orders the model's runs have seen (runChatModel). */
export interface ModelSession {
  readonly s: ChatSession;
  readonly orders: Set<string>;
}

export async function modelSession(t: RuleContext): Promise<ModelSession> {
  const s = await chatSession(t);
  await s.scope();
  return { s, orders: new Set<string>() };
}

export interface QueryCase {
  readonly query: string;
  /** limit=0 asks for no records: refusing it or answering none are both readings of "records per request". */
  readonly zeroLimit?: boolean;
}

export const BAD_QUERIES: readonly QueryCase[] = [
  { query: 'offset=-1' }, { query: 'offset=x' }, { query: 'offset=1.5' },
  { query: 'limit=abc' }, { query: 'limit=-1' }, { query: 'limit=2.5' }, { query: 'limit=0', zeroLimit: true },
];

/** A chat of 60 messages: more than the largest page. */
export const FILL = 60;

export interface BrokenMessage {
  readonly what: string;
  /** The payload of a valid incoming message, changed in one place (any JSON: the point is sending what is wrong). */
  readonly change: (s: ChatSession, p: MessagePayload) => Record<string, unknown>;
  /** The reading that judges accepting it (docs/verdicts.md): a value of another JSON type, or a required member missing. */
  readonly reading: CaseReading;
}

export const SILENT: readonly BrokenMessage[] = [
  { what: 'silent "true" (a string)', change: (_s, p) => ({ ...p, silent: 'true' }), reading: 'wrong-type' },
  { what: 'silent "false" (a string)', change: (_s, p) => ({ ...p, silent: 'false' }), reading: 'wrong-type' },
  { what: 'silent 1 (a number)', change: (_s, p) => ({ ...p, silent: 1 }), reading: 'wrong-type' },
];

/** Outgoing from an account user (sender.ref_id = MANAGER_USER_ID) to a client, its receiver broken one way. */
export function outgoing(s: ChatSession, p: MessagePayload, receiver: unknown): Record<string, unknown> {
  return { ...p, sender: s.manager(), receiver };
}

export const RECEIVER: readonly BrokenMessage[] = [
  { what: 'receiver without id', change: (s, p) => outgoing(s, p, { name: 'Client' }), reading: 'required-member' },
  { what: 'receiver without name', change: (s, p) => outgoing(s, p, { id: s.client().id }), reading: 'required-member' },
  { what: 'receiver id 42 (a number)', change: (s, p) => outgoing(s, p, { id: 42, name: 'Client' }), reading: 'wrong-type' },
  { what: 'receiver name 42 (a number)', change: (s, p) => outgoing(s, p, { id: s.client().id, name: 42 }), reading: 'wrong-type' },
  { what: 'receiver a string', change: (s, p) => outgoing(s, p, 'client'), reading: 'wrong-type' },
];

export function brokenRule(meta: { id: string; title: string; reading: string; covers: string[] }, cases: readonly BrokenMessage[]) {
  return sweepRule<BrokenMessage, HttpResponse, ChatSession>(
    { ...meta, requires: ['write'] },
    {
      setup: (t) => chatSession(t),
      named: cases,
      label: (c) => c.what,
      send: (_t, c, s) => s.postEvent({ event_type: 'new_message', payload: c.change(s, s.payload(s.conversationId(), s.client())) }),
      expect: (_t, c) => refusalChecks(c.reading),
    },
  );
}

/** Two conversations of one client, a message in the second. */
export interface TwoChats {
  readonly s: ChatSession;
  readonly convA: string;
  readonly clientId: string;
  readonly msgidInB: string;
}

/** How each route is named in titles: its method and path template (§4.3). */
export const ROUTE: Record<ChatRouteName, { readonly method: ChatCall['method']; readonly template: string }> = {
  connect: { method: 'POST', template: '.../{channel_id}/connect' },
  disconnect: { method: 'DELETE', template: '.../{channel_id}/disconnect' },
  chats: { method: 'POST', template: '.../{scope_id}/chats' },
  message: { method: 'POST', template: '.../{scope_id}' },
  status: { method: 'POST', template: '.../{scope_id}/{msgid}/delivery_status' },
  history: { method: 'GET', template: '.../{scope_id}/chats/{conversation_id}/history' },
  typing: { method: 'POST', template: '.../{scope_id}/typing' },
  react: { method: 'POST', template: '.../{scope_id}/react' },
};

export const named = (route: ChatRouteName): string => `${ROUTE[route].method} ${ROUTE[route].template}`;

/** Methods a client may send by mistake (HEAD and OPTIONS left out: servers answer them generically). */
export const METHODS: readonly ChatCall['method'][] = ['GET', 'POST', 'PUT', 'DELETE'];

/** The same route with another body, sent as raw text (so it can be anything, JSON or not). */
export function withRaw(call: ChatCall, raw: string): ChatCall {
  return { method: call.method, path: call.path, raw };
}

/** The history path with another query string. */
export function withQuery(call: ChatCall, query: string): ChatCall {
  return { method: call.method, path: `${call.path.split('?', 1)[0]}?${query}` };
}

/** The route's path and valid body, sent with another method (GET without a body). */
export function withMethod(call: ChatCall, method: ChatCall['method']): ChatCall {
  return { method, path: call.path, ...(method !== 'GET' && call.json !== undefined ? { json: call.json } : {}) };
}

export const clip = (text: string): string => (text.length > 60 ? `${JSON.stringify(text.slice(0, 60))}…` : JSON.stringify(text));

export const CHANNEL_NOTE = ' Disconnect runs on a channel of its own (control API), so that a wrongly accepted request cuts no other rule\'s channel.';

export function noServerErrorRule(route: ChatRouteName): RuleDraft {
  const history = route === 'history';
  return sweepRule<string, HttpResponse, RouteFixture>(
    { id: `chat.http.${route}.no-server-error`, level: 'should', requires: routeRequires(route),
      title: `${named(route)}: no correctly signed ${history ? 'offset and limit' : 'JSON body'} causes a 5xx`,
      reading: `Robustness: whatever a client sends, the service answers 2xx or 4xx. ${history
        ? 'offset and limit out of their domain (negative, fractional, words, huge, repeated, bracketed).'
        : 'Each field of a valid body replaced by a value of another type or a boundary, each left out, top-level values that are not an object, and a few generated JSON documents.'}${route === 'disconnect' ? CHANNEL_NOTE : ''}` },
    {
      setup: (t) => routeFixture(t, route),
      named: (t, f) => (history ? ODD_HISTORY_QUERIES : oddJsonBodies(routeCall(route, f).json, t.seed)),
      send: (_t, value, f) => {
        const call = routeCall(route, f);
        return f.session.send(history ? withQuery(call, value) : withRaw(call, value));
      },
      expect: [noServerError],
      label: clip,
      what: 'no 5xx for any odd input',
    },
  );
}

export function malformedJsonRule(route: ChatRouteName): RuleDraft {
  return sweepRule<string, HttpResponse, RouteFixture>(
    { id: `chat.http.${route}.malformed-json`, level: 'must', requires: routeRequires(route),
      title: `${named(route)}: a correctly signed body that is not JSON is refused with 400 and a JSON body`,
      reading: `§4.3 answers 400 for invalid data; a body that does not parse is the plainest case. Signed over its exact bytes, so the signature holds. Another 4xx is non_strict; a 5xx fails.${route === 'disconnect' ? CHANNEL_NOTE : ''}` },
    {
      setup: (t) => routeFixture(t, route),
      named: (t) => notJsonBodies(t.seed),
      send: (_t, text, f) => f.session.send(withRaw(routeCall(route, f), text)),
      expect: [status(400), chatErrorBody],
      label: clip,
      what: 'every malformed body refused',
    },
  );
}

export function wrongMethodRule(route: ChatRouteName): RuleDraft {
  const own = ROUTE[route].method;
  return sweepRule<ChatCall['method'], HttpResponse, RouteFixture>(
    { id: `chat.http.${route}.wrong-method`, level: 'should', requires: routeRequires(route),
      title: `${named(route)} called with another method (${METHODS.filter((m) => m !== own).join(', ')}) answers 405`,
      reading: `RFC 9110 §15.5.6: a method the resource does not support is 405, with an Allow header. Signed correctly for the method sent, with the route's valid body (none with GET), so only the method is wrong. The spec restates neither (K38): a 405 passes with or without Allow (an Allow that leaves out ${own} is non_strict); 404 or another 4xx is non_strict. §4.3 names one method per route, so a 2xx to another method fails (R2-A9), as do a 5xx, a reset or a hang. The refusal is an error response of the chat interface: its body, when it has one, is JSON with Content-Type application/json (§0 "All bodies are JSON", §4.3; issue 32), no body is non_strict (R2-C6).${route === 'disconnect' ? CHANNEL_NOTE : ''}` },
    {
      setup: (t) => routeFixture(t, route),
      named: METHODS.filter((m) => m !== own),
      send: (_t, method, f) => f.session.send(withMethod(routeCall(route, f), method)),
      expect: [status(405), allowOn405(own), chatErrorBody, chatBodyIsJson],
      label: (method) => `${method} instead of ${own}`,
      what: 'every other method refused',
    },
  );
}

export const BODY_ROUTES = CHAT_ROUTES.filter((r) => r !== 'history');

/** An unknown path, signed correctly, on the configured channel's scope and channel. */
export interface UnknownPath {
  readonly method: ChatCall['method'];
  readonly path: (ids: { scopeId: string; channelId: string; runId: string }) => string;
  readonly what: string;
}

export const UNKNOWN_PATHS: readonly UnknownPath[] = [
  { method: 'POST', path: (x) => `${CHAT_BASE}/${x.scopeId}/no-such-endpoint`, what: 'POST .../{scope_id}/no-such-endpoint' },
  { method: 'POST', path: (x) => `${CHAT_BASE}/${x.channelId}/no-such-endpoint`, what: 'POST .../{channel_id}/no-such-endpoint' },
  { method: 'GET', path: (x) => `${CHAT_BASE}/${x.scopeId}/chats/conv-${x.runId}/messages`, what: 'GET .../{scope_id}/chats/{conversation_id}/messages' },
  { method: 'POST', path: (x) => `${CHAT_BASE}/${x.scopeId}/typing/extra`, what: 'POST .../{scope_id}/typing/extra' },
  { method: 'GET', path: (x) => `${CHAT_BASE}/${x.scopeId}/a/b/c/d`, what: 'GET .../{scope_id}/a/b/c/d' },
];

/** The oversized message's text: ten times the 1 MB a JSON API is commonly held to. */
export const OVERSIZED_BYTES = 10 * 1024 * 1024;

/** Strings a route's body carries that the service stores, by the case that puts the bytes there (issue 28 item 4). */
const STORED_STRINGS: Partial<Record<ChatRouteName, Record<string, readonly string[]>>> = {
  message: { 'bytes that are not UTF-8 in the message text': ['payload', 'message', 'text'], 'bytes that are not UTF-8 in the sender\'s name': ['payload', 'sender', 'name'] },
  chats: { 'bytes that are not UTF-8 in the user\'s name': ['user', 'name'] },
  connect: { 'bytes that are not UTF-8 in the title': ['title'] },
};

export function invalidUtf8Rule(route: ChatRouteName): RuleDraft {
  return sweepRule<string, HttpResponse, RouteFixture>(
    { id: `chat.http.${route}.invalid-utf8`, requires: routeRequires(route),
      title: `${route}: a correctly signed body with bytes that are not UTF-8 inside a JSON string causes no 5xx`,
      reading: `${INVALID_UTF8_READING} Signed over the exact bytes, so the signature holds.` },
    {
      setup: (t) => routeFixture(t, route),
      named: ['bytes that are not UTF-8 in an extra member', ...Object.keys(STORED_STRINGS[route] ?? {})],
      send: (_t, label, f) => {
        const call = routeCall(route, f);
        const stored = STORED_STRINGS[route]?.[label];
        return f.session.send({ method: call.method, path: call.path, raw: stored ? withInvalidUtf8At(call.json, stored) : withInvalidUtf8(call.json) });
      },
      expect: [noServerError],
      label: (label) => label,
      what: 'no 5xx',
    },
  );
}

/** A quoted message given in full (no id, no msgid), as §2.11 requires it then. */
export const fullEmbedded = () => ({ type: 'text', text: 'forwarded', timestamp: 1_700_000_000, msec_timestamp: 1_700_000_000_000, sender: { name: 'Someone' } });

export const FW = ['payload', 'forwards', 'messages', 0];

/** §2.11 fields required of a forwarded message without id: the same as of a quoted one (chat.embedded.required). */
export const FORWARDED_FIELDS: FieldSpec[] = [
  { path: [...FW, 'type'], type: 'enum', values: MESSAGE_TYPES }, { path: [...FW, 'text'], type: 'string' }, { path: [...FW, 'timestamp'], type: 'int' },
  { path: [...FW, 'msec_timestamp'], type: 'int' }, { path: [...FW, 'sender'], type: 'object' }, { path: [...FW, 'sender', 'name'], type: 'string' },
];

/** A broken value and the reading that judges its acceptance (docs/verdicts.md); without one, `required-member`. */
export interface BrokenMember { readonly what: string; readonly value: unknown; readonly reading?: CaseReading }

export const memberRefusalOf = (c: BrokenMember) => refusalChecks(c.reading ?? 'required-member');

/** The history of the conversation, read until the message stored under `msgid` shows `text`. */
export const showing = (c: Conversation, msgid: string, text: string): Promise<HistoryItem[]> =>
  c.s.allHistory(c.conv, (items) => items.some((i) => i.message?.client_id === msgid && i.message.text === text));

/** A conversation of two client messages, and a message of another conversation of the same client. */
export interface WithElsewhere extends Conversation {
  readonly elsewhere: string;
}

export async function withElsewhere(t: Parameters<typeof conversationWith>[0]): Promise<WithElsewhere> {
  const c = await conversationWith(t, 2);
  const other = c.s.payload(c.s.conversationId(), c.client, { message: { type: 'text', text: 'in another conversation' } });
  return { ...c, elsewhere: (await c.s.mustSend(other)).msgid };
}

/**
 * An edit of the conversation's second message carrying a quote: `valid` quotes the first message (as a new message
 * could), else one a new message could not carry (reply_to of another chat; two forwards, above the §8 limit of one).
 */
export function quotingEdit(c: WithElsewhere, quote: 'reply_to' | 'forwards', valid: boolean, text: string) {
  const first = { msgid: c.sent[0]!.msgid };
  const elsewhere = { msgid: c.elsewhere };
  return editMessageBody({
    conversation_id: c.conv, msgid: c.sent[1]!.msgid, message: { type: 'text', text },
    ...(quote === 'reply_to' ? { reply_to: { message: valid ? first : elsewhere } } : { forwards: { messages: valid ? [first] : [first, elsewhere] } }),
  });
}

export function quoteIgnoredRule(quote: 'reply_to' | 'forwards') {
  const odd = quote === 'reply_to' ? 'a reply_to of another chat' : 'two forwards';
  const historyAfter = (text: string) => step<WithElsewhere, HistoryItem[]>(`history after ${text}`, (_t, c) => showing(c, c.sent[1]!.msgid, text), (_t, c) => [
    heldOnce(c.sent[1]!.msgid), textIs(c.sent[1]!.msgid, text), textIs(c.sent[0]!.msgid, 'message 1'), holdsMessages(2),
  ]);
  return scenarioRule<WithElsewhere>(
    { id: `chat.edit.${quote === 'reply_to' ? 'reply-to' : 'forwards'}-ignored`, requires: ['write'],
      title: `An edit carrying ${quote}, even ${odd}, is accepted and changes the text only: the message stays one message, and the conversation holds no other`,
      reading: `§4.3 payload table: ${quote} is ignored on edit, so it can neither change the message nor make the edit refused (even ${odd}, which a new message could not carry); refused with 400 is non_strict (C43), and the edit is then sent without it. The history shows no quotes: it shows the edited message once with the new text, and no message added.`,
      covers: [SEND(quote)] },
    {
      setup: withElsewhere,
      steps: [
        step('edit with a valid quote', (_t, c) => editCarrying(c.s, quotingEdit(c, quote, true, 'edited with a valid quote'), [quote]), ignoredOnEdit),
        historyAfter('edited with a valid quote'),
        step(`edit with ${odd}`, (_t, c) => editCarrying(c.s, quotingEdit(c, quote, false, `edited with ${odd}`), [quote]), ignoredOnEdit),
        historyAfter(`edited with ${odd}`),
      ],
    },
  );
}

/** Two conversations of one client: A holds the message the rule tries to edit from B. */
export interface TwoConversations extends Conversation {
  readonly other: string;
}

export const COMMENT = '4.3/Send a comment';

/** A conversation where the client has commented on one post (accepted), the post the rule works on. */
export interface Commented {
  readonly s: ChatSession;
  readonly conv: string;
  readonly client: ParticipantBody;
  readonly postId: string;
  readonly msgid: string;
}

export const commentOn = (postId: string, text: string, extra: Record<string, unknown> = {}) => ({
  type: 'text', text, ...extra, post: { id: postId, url: `https://social.example/p/${postId}` },
});

export async function commented(t: Parameters<typeof chatSession>[0]): Promise<Commented> {
  const s = await chatSession(t);
  const conv = s.conversationId();
  const client = s.client('Commenter');
  const postId = `post-${s.msgid()}`;
  const { msgid } = await s.mustSend(s.payload(conv, client, { message: commentOn(postId, 'a client comment') }));
  return { s, conv, client, postId, msgid };
}

/** The client's comment on a post of the run (`p1` becomes `p1-<run id>`), as the message it is sent in. */
export interface PostComment {
  readonly post: string;
  readonly payload: MessagePayload;
}

export const postComment = (c: ClientMessage, post: string): PostComment => {
  const id = `${post}-${c.s.t.runId}`;
  return { post: id, payload: c.s.payload(c.conv, c.client, { message: commentOn(id, `comment on ${id}`) }) };
};

/** A reply comment on the post from `sender` (a manager or the bot) to the client. */
export const replyComment = (c: Commented, sender: ParticipantBody): MessagePayload =>
  c.s.payload(c.conv, sender, { receiver: c.client, message: commentOn(c.postId, 'a reply comment') });

export type Family = 'token endpoint' | 'account API' | 'chat interface';

export const truth = (label: string, judges: Parameters<typeof step<Conversation, MessageTruth>>[2]) =>
  step<Conversation, MessageTruth>(label, (_t, c) => messageTruth(c.s, c.conv, c.sent[0]!.msgid), judges);

export const react = (c: Conversation, type: 'react' | 'unreact') =>
  c.s.react({ conversation_id: c.conv, msgid: c.sent[0]!.msgid, user: { id: c.client.id }, type, emoji: '👍' });

export interface WithForeign extends Conversation {
  readonly foreign: ForeignChat;
}

export const naming = (c: WithForeign, ref: string, text: string) =>
  c.s.sendMessage(c.s.payload(c.conv, c.client, { conversation_ref_id: ref, message: { type: 'text', text } }));

/** A chat the account started (write-first) and the client who replies to it under a conversation_id of its own. */
export interface WriteFirst {
  readonly s: ChatSession;
  readonly chatId: string;
  readonly conv: string;
  readonly reply: string;
}

/** The connects' answers, and the message then sent under the one scope_id they named. */
export interface Connects {
  readonly s: ChatSession;
  answers: readonly HttpResponse[];
  readonly message: MessagePayload;
}

/** The history one msgid left when sent in sequence, kept for the parallel step to be compared with. */
export interface Repeats {
  readonly s: ChatSession;
  sequential?: RepeatSeen;
}

/** A conversation whose first message the race edits. */
export interface Edits extends Conversation {
  readonly texts: readonly string[];
}

/** A conversation, the message a forward carries, and the msgids of the forwards sent (accepted, then refused). */
export interface Forwarding extends Conversation {
  readonly from: ForwardSource;
  accepted: string;
  refused: string;
  /** The answer to the forward that should be refused: when it was accepted (non_strict, C48), the message may be stored. */
  refusedStatus: number;
}

export async function forwarding(t: Parameters<typeof conversationWith>[0]): Promise<Forwarding> {
  const c = await conversationWith(t, 1);
  return { ...c, from: await forwardSource(c), accepted: '', refused: '', refusedStatus: 0 };
}

/** The same, and a chat of the configured channel in a second account. */
export interface ForwardingForeign extends Forwarding {
  readonly foreign: ForeignChat;
}

/**
 * The client's conversation in the first account, and a message the integration sent in a conversation of a second
 * account (the configured channel connected there): what a forward from the first account may name by that message's ids.
 */
export interface ForeignForward extends Conversation {
  readonly b: ChatSession;
  readonly bConv: string;
  /** The second account's message: its integration-side msgid, its chat-interface id, its text. */
  readonly there: SentMessage & { readonly text: string };
  /** The forwarding message's msgid, and the answer it got. */
  forwarded: string;
  forwardStatus: number;
}

export async function foreignForward(t: RuleContext): Promise<ForeignForward> {
  const c = await conversationWith(t, 1);
  const b = await chatSession(t, { ...c.s.channel, accountId: await secondAccountId(t, c.s.channel.accountId) });
  const bConv = b.conversationId();
  const text = `said in the second account ${b.msgid()}`;
  const payload = b.payload(bConv, b.client('Second Account Client'), { message: { type: 'text', text } });
  const sent = await b.mustSend(payload);
  if (!sent.id) throw new TargetAnswer(STEP_OWNERS.sendMessage, 'the second account\'s message was answered without new_message.msgid (its chat-interface id)');
  return { ...c, b, bConv, there: { ...sent, text }, forwarded: '', forwardStatus: 0 };
}

/** A conversation of the client on the configured channel, and the hooks the control API counted for it so far. */
export interface Import {
  readonly s: ChatSession;
  readonly conv: string;
  readonly client: ParticipantBody;
  readonly msgid: string;
  hooks: number;
}

/** The typing body's members (§4.3 Typing indicator): all unmarked beside the optional duration_ms. */
export const TYPING_FIELDS: FieldSpec[] = [{ path: ['conversation_id'], type: 'string', unmarked: true }, { path: ['sender'], type: 'object', unmarked: true }, { path: ['sender', 'id'], type: 'string', unmarked: true }];
export const TYPING_VALID = { conversation_id: 'c', duration_ms: 1000, sender: { id: 'u' } };
/** Each member broken, and duration_ms sent as a string. */
export const TYPING_CASES: readonly FieldCase[] = [...sweepCases(TYPING_FIELDS), { path: ['duration_ms'], type: 'int', breakage: 'wrong-type', wrongType: 'a string', value: '5000' }];

/** A reaction body broken one way, and the reading its acceptance is judged by. */
export interface BrokenReaction { readonly what: string; readonly body: Record<string, unknown>; readonly reading: CaseReading }

export function brokenReactions(f: ClientMessage): readonly BrokenReaction[] {
  const valid = { conversation_id: f.conv, msgid: f.sent.msgid, user: { id: f.client.id }, type: 'react', emoji: '👍' };
  return [
    { what: 'no msgid nor id', body: applyCase(valid, { path: ['msgid'], breakage: 'missing' }), reading: 'required-member' },
    { what: 'no conversation_id nor conversation_ref_id', body: applyCase(valid, { path: ['conversation_id'], breakage: 'missing' }), reading: 'required-member' },
    { what: 'no user', body: applyCase(valid, { path: ['user'], breakage: 'missing' }), reading: 'unmarked-member' },
    { what: 'no user.id', body: applyCase(valid, { path: ['user', 'id'], breakage: 'missing' }), reading: 'unmarked-member' },
    { what: 'type "like"', body: { ...valid, type: 'like' }, reading: 'enumeration' },
    // The edges of the enumeration a random string rarely hits (R2-C12): the empty string, another case, a number.
    { what: 'type ""', body: { ...valid, type: '' }, reading: 'enumeration' },
    { what: 'type "REACT"', body: { ...valid, type: 'REACT' }, reading: 'enumeration' },
    { what: 'type 1 (a number)', body: { ...valid, type: 1 }, reading: 'enumeration' },
    { what: 'no type', body: applyCase(valid, { path: ['type'], breakage: 'missing' }), reading: 'unmarked-member' },
  ];
}

/** A session, a chat created for a fresh conversation (its chat-interface id) and the client's message in it. */
export interface ReactTarget extends ClientMessage { readonly chatId: string }

export async function reactTarget(t: RuleContext): Promise<ReactTarget> {
  const s = await chatSession(t);
  const conv = s.conversationId();
  const client = s.client();
  const chatId = await chatIdOf(s, conv, client);
  return { s, conv, client, chatId, sent: await s.mustSend(s.payload(conv, client)) };
}

/** The ways §4.3 Reaction names a message and its chat, and unreact; on behalf of a manager where MANAGER_USER_ID is set. */
export function reactionVariants(f: ReactTarget): readonly { readonly what: string; readonly body: Record<string, unknown> }[] {
  const { s, conv, client, chatId, sent } = f;
  return [
    { what: 'msgid + conversation_id', body: { conversation_id: conv, msgid: sent.msgid, user: { id: client.id }, type: 'react', emoji: '👍' } },
    { what: 'id + conversation_ref_id', body: { conversation_ref_id: chatId, id: sent.id, user: { id: client.id }, type: 'react', emoji: '🔥' } },
    { what: 'unreact', body: { conversation_id: conv, msgid: sent.msgid, user: { id: client.id }, type: 'unreact' } },
    ...(s.channel.managerUserId ? [{ what: 'on behalf of a manager (user.ref_id)', body: { conversation_id: conv, msgid: sent.msgid, user: { id: `manager-${s.channel.managerUserId}`, ref_id: s.channel.managerUserId }, type: 'react', emoji: '👌' } }] : []),
  ];
}

/** A session and a fresh conversation whose first client message was accepted: the chat a rule's requests then name. */
export interface ClientMessage extends FreshConversation {
  readonly sent: SentMessage;
}

export async function clientMessage(t: RuleContext): Promise<ClientMessage> {
  const { s, conv, client } = await freshConversation(t);
  return { s, conv, client, sent: await s.mustSend(s.payload(conv, client)) };
}

/** Connect's members broken where connect must refuse them: account_id in every way, the others given a wrong JSON type. */
const refusableOnConnect = (c: FieldCase) => c.breakage === 'wrong-type' || c.path[0] === 'account_id';
export const CONNECT_CASES: readonly FieldCase[] = [...sweepCases(CONNECT_FIELDS).filter(refusableOnConnect), { path: ['hook_api_version'], type: 'enum', breakage: 'wrong-type', wrongType: 'an unknown version', value: 'v3' }];
export const connectCaseArb = () => fieldCaseArb(CONNECT_FIELDS).filter(refusableOnConnect);
/** A valid connect body for the session's account, every optional field given. */
export const fullConnectBody = (s: ChatSession) => ({ account_id: s.channel.accountId, hook_api_version: s.hookApiVersion, title: 'Title', is_time_window_disabled: false });

/** A chat created for a fresh conversation, and its chat-interface id: what creating it again must give back. */
export interface CreatedChat {
  readonly s: ChatSession;
  readonly conv: string;
  readonly user: ParticipantBody;
  readonly first: string;
  /** The user's chat-interface id that first creation answered (user.id), when it answered one. */
  readonly firstUser: unknown;
}

export async function createdChatFor(t: RuleContext): Promise<CreatedChat> {
  const s = await chatSession(t);
  const conv = s.conversationId();
  const user = s.client();
  const res = await s.createChat(conv, user);
  const first = jsonAt(res, 'id');
  if (!isSuccess(res.status) || typeof first !== 'string') throw new Precondition(`creating a chat answered ${res.status}`);
  return { s, conv, user, first, firstUser: jsonAt(res, ['user', 'id']) };
}

/** A fresh conversation of one client on a connected scope, and the answers of the creations of its chat sent at once. */
export interface CreationRace {
  readonly s: ChatSession;
  readonly conv: string;
  readonly user: ParticipantBody;
  answers: readonly HttpResponse[];
}

export async function creationRace(t: RuleContext): Promise<CreationRace> {
  const s = await chatSession(t);
  await s.scope();
  return { s, conv: s.conversationId(), user: s.client(), answers: [] };
}

// Robustness over the valid input space (issue 20): each route walked, each route called without a body.

/** What each route's rule says it walks, and the success code §4.3 states for it. */
export const VALID_SPACE_ROUTES: Record<SpaceRoute, { readonly what: string; readonly accepted: number }> = {
  message: { what: 'A new message (POST .../{scope_id}) with sender profile, source, reply_to and forwards', accepted: 200 },
  edit: { what: 'An edit (POST .../{scope_id}, edit_message) naming the message by id and msgid, with timestamps and silent', accepted: 200 },
  chats: { what: 'Create chat (POST .../{scope_id}/chats) with source and a user with avatar, profile and profile_link', accepted: 200 },
  status: { what: 'Delivery status (POST .../{scope_id}/{msgid}/delivery_status)', accepted: 200 },
  typing: { what: 'Typing (POST .../{scope_id}/typing) with duration_ms', accepted: 204 },
  react: { what: 'A reaction (POST .../{scope_id}/react) naming the chat and the message both ways, with emoji', accepted: 200 },
  history: { what: 'History (GET .../{scope_id}/chats/{conversation_id}/history) with offset and limit', accepted: 200 },
};

export function validSpaceRule(route: SpaceRoute): RuleDraft {
  return sweepRule<SpaceCase, Awaited<ReturnType<typeof sendSpaceCase>>, SpaceFixture>(
    { id: `chat.valid-space.${route}`, level: 'must', requires: ['write'],
      title: `${VALID_SPACE_ROUTES[route].what}: each optional member left out, each array emptied and each reference to nothing answers without a 5xx, as the spec reads it`,
      reading: 'Robustness over the valid space (issue 20): a 5xx fails every case. An optional member left out is accepted (status-code; a react without emoji refused is non_strict, C59); a message id §7 answers 404 for gets 404 (another 4xx non_strict); a reference the spec is silent on (an unknown quoted, forwarded or edited message, an unknown conversation for typing or a reaction), an emptied array and an unmarked member left out may be accepted or refused; an edit without timestamps refused is non_strict (rule 4 names message and the ids, the payload table leaves the timestamps unmarked). Named cases every run, then random combinations from the seed.' },
    {
      setup: (t) => spaceFixture(t),
      named: () => namedSpaceCases(VALID_SPACES[route]),
      cases: () => spaceCaseArb(VALID_SPACES[route]),
      send: (_t, c, f) => sendSpaceCase(route, f, c),
      expect: (_t, c) => spaceCaseChecks(c, VALID_SPACE_ROUTES[route].accepted),
      label: describeSpaceCase,
      what: 'every valid-space case answered as the spec reads it',
    },
  );
}

/** The routes that take a body, each called with none at all. */
export const NO_BODY_ROUTES: readonly ChatRouteName[] = ['connect', 'disconnect', 'chats', 'message', 'status', 'typing', 'react'];

/** typing's members are unmarked (only duration_ms is marked optional, C56): a body-less typing accepted is non_strict. */
const UNMARKED_ONLY: readonly ChatRouteName[] = ['typing'];

export function noBodyRule(route: ChatRouteName): RuleDraft {
  return sweepRule<'no body', Awaited<ReturnType<RouteFixture['session']['send']>>, RouteFixture>(
    { id: `chat.http.${route}.no-body`, level: 'must', requires: routeRequires(route), ...(route === 'disconnect' && { needs: ['second-channel'] }),
      title: `${route}: a correctly signed request with no body at all is refused with 400 and a JSON body`,
      reading: `§4.3 "400 when data is invalid": a body left out lacks every member the route requires (required-member: another 4xx non_strict${UNMARKED_ONLY.includes(route) ? '; typing names only unmarked members, so an acceptance is non_strict too' : ''}); a 5xx fails. Signed over the empty body (Content-MD5 of the empty string).${route === 'disconnect' ? ' On a channel of its own.' : ''}` },
    {
      setup: (t) => routeFixture(t, route),
      named: ['no body'],
      send: (_t, _c, f) => {
        const { method, path } = routeCall(route, f);
        return f.session.send({ method, path });
      },
      expect: [status(400, UNMARKED_ONLY.includes(route) ? { accepted: 'non_strict' } : {}), chatErrorBody],
      label: () => 'no body',
      what: 'the body-less request refused',
    },
  );
}
