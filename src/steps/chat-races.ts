/**
 * Steps of the §4.3 race rules (connects, sends of one msgid and edits of one message, each sent at once) and of the
 * forwards and import rules beside them. Parallel requests go through the kit's own client, like every other request,
 * so a target with RATE_LIMIT_RPS never gets more than the run was told it may send.
 */
import { briefBody } from '../checks/status.js';
import { stringAt } from '../checks/fields.js';
import type { RepeatSeen } from '../checks/races.js';
import { TargetAnswer } from '../errors.js';
import { STEP_OWNERS } from './owners.js';
import type { HttpResponse } from '../model/http.js';
import { isSuccess } from '../model/http.js';
import { editMessageBody, type MessagePayload, type ParticipantBody } from '../protocol/chat.js';
import type { HistoryItem } from '../protocol/answers.js';
import { accountMessage, type ChatSession } from './chat.js';
import type { Conversation } from './chat-conversation.js';
import { POLICY_HOOK_WINDOW_MS } from '../model/readings.js';

/** Requests a race sends at once: enough to interleave on a store without a lock, few enough for a live account. */
export const RACERS = 8;

/** Connects the session's channel `n` times at once, for the session's account. */
export function connectsAtOnce(s: ChatSession, n = RACERS): Promise<HttpResponse[]> {
  return Promise.all(Array.from({ length: n }, () => s.connect()));
}

/** Creates the chat of `conv` for `user` `n` times at once (a client retrying on a timeout). */
export function createsAtOnce(s: ChatSession, conv: string, user: ParticipantBody, n = RACERS): Promise<HttpResponse[]> {
  return Promise.all(Array.from({ length: n }, () => s.createChat(conv, user)));
}

/** The first successful (2xx) answer of a race, else the first answer (the judges report the lack of a success). */
export function firstAccepted(answers: readonly HttpResponse[]): HttpResponse {
  return answers.find((r) => r.status >= 200 && r.status < 300) ?? answers[0]!;
}

/** Creates the chat of `conv` and gives its chat-interface id; TargetAnswer when it is not created. */
export async function mustCreateChat(s: ChatSession, conv: string, user: ParticipantBody): Promise<string> {
  const res = await s.createChat(conv, user);
  const id = stringAt(res, ['id']);
  if (!isSuccess(res.status) || !id) throw new TargetAnswer(STEP_OWNERS.createChat, `creating a chat answered ${res.status}${briefBody(res)}`);
  return id;
}

const heldUnder = (items: readonly HistoryItem[], msgid: string): number => items.filter((i) => i.message?.client_id === msgid).length;

/**
 * One message sent `n` times with the same msgid and body (a client retrying) to a chat of its own, created first so
 * that only the msgid races; then the history, read until it holds at least `atLeast` elements under the msgid. In
 * sequence, the first send must be accepted (the msgid is new): TargetAnswer otherwise.
 */
export async function repeatMsgid(s: ChatSession, how: RepeatSeen['how'], atLeast = 1, n = RACERS): Promise<RepeatSeen> {
  const conv = s.conversationId();
  const client = s.client('Retrying Client');
  await mustCreateChat(s, conv, client);
  const payload = s.payload(conv, client, { message: { type: 'text', text: 'one message, sent again' } });
  const answers: HttpResponse[] = [];
  if (how === 'in parallel') answers.push(...await Promise.all(Array.from({ length: n }, () => s.sendMessage(payload))));
  else {
    for (let i = 0; i < n; i += 1) answers.push(await s.sendMessage(payload));
    if (!isSuccess(answers[0]!.status)) throw new TargetAnswer(STEP_OWNERS.sendMessage, `the first send of a new msgid answered ${answers[0]!.status}${briefBody(answers[0]!)}`);
  }
  const items = await s.allHistory(conv, (i) => heldUnder(i, payload.msgid) >= atLeast);
  return { how, answers, msgid: payload.msgid, held: heldUnder(items, payload.msgid), total: items.length };
}

/** The texts of `n` edits of one message, each different. */
export function editTexts(n = RACERS): string[] {
  return Array.from({ length: n }, (_, i) => `edit ${i + 1} of ${n}`);
}

/** Edits the conversation's first message once per text, all at once, naming it by msgid. */
export function editsAtOnce(c: Conversation, texts: readonly string[]): Promise<HttpResponse[]> {
  const msgid = c.sent[0]!.msgid;
  return Promise.all(texts.map((text) => c.s.postEvent(editMessageBody({ conversation_id: c.conv, msgid, message: { type: 'text', text } }))));
}

/** A message of another conversation of the client, which a forward may carry, and that chat's chat-interface id. */
export interface ForwardSource {
  readonly chatId: string;
  readonly msgid: string;
}

export async function forwardSource(c: Conversation): Promise<ForwardSource> {
  const conv = c.s.conversationId();
  const chatId = await mustCreateChat(c.s, conv, c.client);
  const { msgid } = await c.s.mustSend(c.s.payload(conv, c.client, { message: { type: 'text', text: 'to be forwarded' } }));
  return { chatId, msgid };
}

/** The client's message in the conversation forwarding `from`'s message, with forwards.conversation_ref_id `refId`. */
export function forwardNaming(c: Conversation, from: ForwardSource, refId: string, text: string): MessagePayload {
  return c.s.payload(c.conv, c.client, { forwards: { messages: [{ msgid: from.msgid }], conversation_ref_id: refId }, message: { type: 'text', text } });
}

/** A message of the integration's bot to the client, imported: silent, sender.ref_id the bot id (§4.3 rule 3). */
export function importedBotMessage(s: ChatSession, conv: string, client: ParticipantBody, text: string): MessagePayload {
  return s.payload(conv, s.bot(), { receiver: client, silent: true, message: { type: 'text', text } });
}

/** How many outgoing-message hooks the control API has seen sent for one conversation of the session's scope. */
export async function conversationHookCount(s: ChatSession, conv: string): Promise<number> {
  const q = `?scope_id=${encodeURIComponent(await s.scope())}&conversation_id=${encodeURIComponent(conv)}`;
  return (await s.t.control.call<{ hooks: unknown[] }>('GET', `/chat/hooks${q}`)).hooks.length;
}

/** A manager writes in the conversation from the account (control API); the hooks of the conversation once one came. */
export async function hooksAfterAccountMessage(s: ChatSession, conv: string): Promise<number> {
  const before = await conversationHookCount(s, conv);
  await accountMessage(s, conv);
  return (await s.t.eventually(() => conversationHookCount(s, conv), { within: POLICY_HOOK_WINDOW_MS, until: (n) => n > before })).value - before;
}

/**
 * The hooks of the conversation that carry `text`, watched for the whole hook window (a negative: none may come). By
 * its text, so that a manager's hook sent again (a retry, allowed) is not taken for a hook of another message (R2-C4).
 */
export async function hooksWithText(s: ChatSession, conv: string, text: string): Promise<number> {
  const q = `?scope_id=${encodeURIComponent(await s.scope())}&conversation_id=${encodeURIComponent(conv)}`;
  const count = async () => (await s.t.control.call<{ hooks: { text?: unknown }[] }>('GET', `/chat/hooks${q}`)).hooks.filter((h) => h.text === text).length;
  return (await s.t.eventually(count, { within: POLICY_HOOK_WINDOW_MS, until: (n) => n > 0 })).value;
}
