/**
 * Checks of what a chat history shows about one message (§4.3 "Get chat history"), the message named by the
 * integration-side id it is stored under (`message.client_id`). Each judges one field of that one element.
 */
import type { Check, Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, nonStrict, observed, pass } from '../model/outcome.js';
import { isSuccess } from '../model/http.js';
import { arrayAt, type Expectation, valueFields } from './fields.js';
import { parseJson, showsValue, valueMatchesSchema } from './json.js';
import { status } from './status.js';
import type { HistoryItem } from '../protocol/answers.js';
import type { ParticipantBody } from '../protocol/chat.js';
import { historyMemberShown } from './chat-members.js';

const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v)?.slice(0, 100) ?? String(v));

function only(items: readonly HistoryItem[], clientId: string): HistoryItem | undefined {
  return items.find((i) => i.message?.client_id === clientId);
}

/** The message is in the history exactly once. */
export function heldOnce(clientId: string): Judge<HistoryItem[]> {
  return (items) => {
    const n = items.filter((i) => i.message?.client_id === clientId).length;
    return n === 1 ? pass('held once', `message ${clientId} once`) : fail('held once', `expected message ${clientId} once in the history, observed it ${n} time(s) among ${items.length}`);
  };
}

/** The message's text is the one given. */
export function textIs(clientId: string, text: string): Judge<HistoryItem[]> {
  return (items) => {
    const seen = only(items, clientId)?.message?.text;
    return seen === text ? pass('text', show(seen)) : fail('text', `expected message ${clientId} with text ${show(text)}, observed ${show(seen)}`);
  };
}

/** The message's sender is the external participant given (client_id and name, §2.5). */
export function senderIs(clientId: string, who: { readonly id: string; readonly name: string }): Judge<HistoryItem[]> {
  return (items) => {
    const s = only(items, clientId)?.sender;
    return s?.client_id === who.id && s.name === who.name
      ? pass('sender', `client_id ${who.id}`)
      : fail('sender', `expected sender client_id ${who.id} named ${show(who.name)}, observed ${show(s)}`);
  };
}

/**
 * An account user's or the bot's message shows that sender (§4.3 history "sender … id", §2.5 ref_id: "For a manager
 * message: id of the account user. For a bot message: id of the integration bot"): its id is the ref_id the message
 * was sent with. Another participant shown as the sender (the bot for a manager, the client, an administrator) fails.
 */
export function senderRefIs(clientId: string, refId: string): Judge<HistoryItem[]> {
  return (items) => {
    const item = only(items, clientId);
    if (!item) return fail('sender id', `message ${clientId} is not in the history`);
    return item.sender?.id === refId ? pass('sender id', refId) : fail('sender id', `expected the sender shown by the ref_id it was sent with (${refId}), observed ${show(item.sender)}`);
  };
}

/** The members of a history participant `participantShown` compares with what was sent. */
export type ShownMember = 'avatar' | 'phone' | 'email';

/**
 * The sender or receiver of the message shows the avatar, phone and email `sent` gave it (§4.3 history "sender /
 * receiver … `avatar`, `phone`, `email` (2.5)"), member by member as `historyMemberShown` reads them; the worst member
 * decides. `members` leaves out what the spec does not tie to what was sent (an account user's avatar is the account's).
 */
export function participantShown(clientId: string, role: 'sender' | 'receiver', sent: ParticipantBody, members: readonly ShownMember[] = ['avatar', 'phone', 'email']): Judge<HistoryItem[]> {
  const name = `${role} ${members.join(', ')}`;
  const given: Record<ShownMember, string | undefined> = { avatar: sent.avatar, phone: sent.profile?.phone, email: sent.profile?.email };
  return (items) => {
    const item = only(items, clientId);
    if (!item) return fail(name, `message ${clientId} is not in the history`);
    const who = item[role];
    if (!who) return fail(name, `message ${clientId} shows no ${role}`);
    const seen = members.map((m) => historyMemberShown(m, who[m], given[m]));
    const worst = seen.filter((x) => x.verdict === 'failed');
    const lesser = seen.filter((x) => x.verdict === 'non_strict');
    if (worst.length > 0) return fail(name, worst.map((x) => x.detail).join('; '));
    if (lesser.length > 0) return nonStrict(name, lesser.map((x) => x.detail).join('; '));
    return pass(name, seen.map((x) => x.detail).join('; '));
  };
}

/** The message has no receiver: an incoming message from a client (§4.3 message kinds). */
export function withoutReceiver(clientId: string): Judge<HistoryItem[]> {
  return (items) => {
    const item = only(items, clientId);
    if (!item) return fail('no receiver', `message ${clientId} is not in the history`);
    return item.receiver === undefined || item.receiver === null ? pass('no receiver') : fail('no receiver', `expected no receiver on an incoming message, observed ${show(item.receiver)}`);
  };
}

/** No element of the history is stored under this integration-side id. */
export function absentFromHistory(clientId: string): Judge<HistoryItem[]> {
  return (items) => {
    const n = items.filter((i) => i.message?.client_id === clientId).length;
    return n === 0 ? pass('absent', `no message ${clientId}`) : fail('absent', `expected no message stored under ${clientId}, observed ${n}`);
  };
}

/**
 * The element's timestamp and msec_timestamp are the time the message was sent with: seconds and milliseconds
 * (§4.3 history table), so a value in the other unit, or one that does not agree with the other, is caught.
 * `receivedMs` is when the kit sent it (the message carries a time an hour earlier): a history that shows that
 * receive time instead, in both units alike, is non_strict (REQ-4.3-history-timestamps, C41).
 */
export function sentTimeIs(clientId: string, sent: { readonly timestamp: number; readonly msec_timestamp: number }, receivedMs?: number): Judge<HistoryItem[]> {
  return (items) => {
    const item = only(items, clientId);
    if (!item) return fail('send time', `message ${clientId} is not in the history`);
    const problems: string[] = [];
    if (item.timestamp !== sent.timestamp) problems.push(`timestamp ${show(item.timestamp)} is not ${sent.timestamp} (seconds)`);
    if (item.msec_timestamp !== sent.msec_timestamp) problems.push(`msec_timestamp ${show(item.msec_timestamp)} is not ${sent.msec_timestamp} (milliseconds)`);
    if (problems.length === 0) return pass('send time', `${sent.timestamp} s, ${sent.msec_timestamp} ms`);
    if (receivedMs !== undefined && isReceiveTime(item.timestamp, item.msec_timestamp, receivedMs)) {
      return nonStrict('send time', `the history shows the time the message was received (${String(item.timestamp)} s, ${String(item.msec_timestamp)} ms), not the send time it carried (${sent.timestamp} s)`);
    }
    return fail('send time', problems.join('; '));
  };
}

/** Seconds and milliseconds of one instant, within five minutes of `receivedMs`. */
function isReceiveTime(seconds: unknown, ms: unknown, receivedMs: number): boolean {
  const near = 300_000;
  return typeof seconds === 'number' && typeof ms === 'number' && Number.isInteger(seconds) && Number.isInteger(ms)
    && Math.floor(ms / 1000) === seconds && Math.abs(ms - receivedMs) < near;
}

/** The §4.3 history fields a sent §2.7 message maps to: the element shows each one the message was sent with. */
const HISTORY_FIELDS = ['type', 'media', 'file_name', 'file_size', 'location', 'contact'] as const;

/** A media URL the service re-hosted: present and non-empty (answer-member: not necessarily the URL sent; C12 of the review). */
const rehosted = (v: unknown): boolean => typeof v === 'string' && v !== '';

/**
 * The element carries the type and the file, location or contact fields the message was sent with (and its text when
 * it had one): a valid message of any type is accepted and shown as sent. Extra fields are allowed; `media` may be
 * a re-hosted copy (any non-empty URL).
 */
export function carriesSent(clientId: string, sent: Readonly<Record<string, unknown>>): Judge<HistoryItem[]> {
  return (items) => {
    const m = only(items, clientId)?.message;
    if (!m) return fail('as sent', `message ${clientId} is not in the history`);
    const fields = [...HISTORY_FIELDS.filter((k) => sent[k] !== undefined), ...(sent.text ? ['text' as const] : [])];
    const differ = fields.filter((k) => !(showsValue(m[k], sent[k]) || (k === 'media' && rehosted(m[k]))));
    return differ.length === 0
      ? pass('as sent', `${String(sent.type)}: ${fields.join(', ')}`)
      : fail('as sent', differ.map((k) => `${k} ${show(m[k])} is not ${show(sent[k])}`).join('; '));
  };
}

/** A message sent in a conversation of its own, and that conversation's history read back. */
export interface SentAndRead {
  readonly res: HttpResponse;
  readonly items: HistoryItem[];
  readonly msgid: string;
  readonly message: Record<string, unknown>;
}

/**
 * The answer's `new_message.msgid` ("Message id in the chat interface", §4.3) is the id the history shows for the
 * message (`message[id]`): another message's id, or one the history does not know, fails. An answer without it is
 * judged by the answer's own rule (chat.message.answer), not here.
 */
export function answerIdShown(clientId: string): Judge<{ readonly res: HttpResponse; readonly items: readonly HistoryItem[] }> {
  return ({ res, items }) => {
    const answered = (parseJson(res) as { new_message?: { msgid?: unknown } } | undefined)?.new_message?.msgid;
    if (answered === undefined) return pass('answer id in history', 'the answer names no msgid');
    const shown = only(items, clientId)?.message?.id;
    if (shown === undefined) return pass('answer id in history', 'the history shows no id for the message');
    return answered === shown
      ? pass('answer id in history', `msgid ${String(answered)}`)
      : fail('answer id in history', `the answer's new_message.msgid ${show(answered)} is not the history's message.id ${show(shown)}`);
  };
}

/** The message was accepted (200), the history shows it as sent, under the id the answer gave. */
export const acceptedAndShownAsSent: readonly Judge<SentAndRead>[] = [
  (o) => status(200)(o.res),
  (o) => carriesSent(o.msgid, o.message)(o.items),
  (o) => answerIdShown(o.msgid)(o),
];

/**
 * limit=0 (C55): a 400, or an answer with no messages (204, or 200 with an empty `messages` array) passes; another 4xx,
 * or a 200 with messages (limit=0 read as "no limit" or clamped to 1), is non_strict; only a breakage fails.
 */
export const refusedOrNoMessages: Judge<HttpResponse> = (res) => {
  if (res.status === 400 || res.status === 204) return pass('limit 0', `status ${res.status}`);
  const messages = arrayAt(res, ['messages']);
  if (res.status === 200 && messages?.length === 0) return pass('limit 0', '200 with no messages');
  if (res.status >= 500) return fail('limit 0', `expected 400 or no messages, observed ${res.status} (a server error)`);
  return nonStrict('limit 0', `expected 400 or no messages, observed ${res.status}${messages ? ` with ${messages.length} message(s)` : ''}`);
};

/**
 * History of a chat that does not exist, or has no messages (§4.3, §7: 204). 204 passes; 200 with an empty
 * `messages` array is non_strict; 200 with messages fails (another account's messages, R2-C13). A refusal fails
 * either way: "204 when the chat does not exist or has no messages" names the code for both, and a client written to
 * the spec reads a 404 as an error (R2-C14; C51 had eased it for a chat that does not exist).
 */
export function emptyHistory(kind: 'no chat' | 'no messages'): Judge<HttpResponse> {
  return (res) => {
    if (res.status === 204) return pass(kind, 'status 204');
    const messages = arrayAt(res, ['messages']);
    if (res.status >= 500) return fail(kind, `expected 204, observed ${res.status} (a server error)`);
    if (isSuccess(res.status)) {
      return (messages?.length ?? 0) === 0
        ? nonStrict(kind, `expected 204, observed ${res.status} with no messages`)
        : fail(kind, `expected 204, observed ${res.status} with ${messages!.length} message(s) for a chat with ${kind === 'no chat' ? 'no existence' : 'no messages'}`);
    }
    return fail(kind, `expected 204, observed ${res.status}: ${kind === 'no chat' ? 'a chat that does not exist was refused ("204 when the chat does not exist")' : 'the existing chat was refused'}`);
  };
}

/**
 * A history page holds at most `max` messages (§4.3, §8: limit "maximum 50 per request"); `stated` is the limit the
 * request gave (or none). Fewer than asked while more exist (but some) is non_strict (C52); more than `max` fails.
 */
export function pageSize(name: string, o: { readonly max: number; readonly asked?: number; readonly exist: number }): Judge<HttpResponse> {
  return (res) => {
    const n = historyItemsOf(res).length;
    if (n > o.max) return fail(name, `expected at most ${o.max} messages in one answer, observed ${n}`);
    const want = Math.min(o.asked ?? o.max, o.exist);
    if (o.asked === undefined && n === 0 && o.exist > 0) return fail(name, `expected some of the ${o.exist} messages, observed none`);
    if (o.asked !== undefined && n < want) {
      return n > 0 ? nonStrict(name, `expected ${want} of the ${o.exist} messages, observed ${n}`) : fail(name, `expected ${want} of the ${o.exist} messages, observed none`);
    }
    return pass(name, `${n} messages`);
  };
}

/** limit above the maximum (51): 400 passes; another 4xx is non_strict (C53); 200 with at most 50 passes; more fails. */
export function overLimit(max: number): Judge<HttpResponse> {
  const name = `limit ${max + 1}`;
  return (res) => {
    if (res.status === 400) return pass(name, 'refused with 400');
    if (res.status >= 500) return fail(name, `expected 400 or at most ${max} messages, observed ${res.status} (a server error)`);
    if (res.status >= 400) return nonStrict(name, `expected 400 or at most ${max} messages, observed ${res.status} (another refusal)`);
    const n = historyItemsOf(res).length;
    return n <= max ? pass(name, `capped: ${n} messages`) : fail(name, `expected 400 or at most ${max} messages, observed ${res.status} with ${n} messages`);
  };
}

/** The messages of a history answer (none when the body has no `messages` array). */
export function historyItemsOf(res: HttpResponse): HistoryItem[] {
  return (arrayAt(res, ['messages']) ?? []) as HistoryItem[];
}

/** Records how many of `total` messages a page without limit holds (the spec names no default). */
export function observedPageSize(total: number): Judge<readonly HistoryItem[]> {
  return (items) => observed('default page', `${items.length} of ${total} messages without limit`);
}

/** Records what a request did to an existing message's text: answered status, and the text before and after. */
export function observedTextChange(name: string): Judge<{ readonly status: number; readonly before: unknown; readonly after: unknown }> {
  return (o) => observed(name, `answered ${o.status}; the existing message ${o.after === o.before ? 'is unchanged' : `now reads ${show(o.after)}`}`);
}

/** Fields of the message stored under `clientId`, judged as one finding (`text` and `file_name` after an edit). */
export function messageFields(clientId: string, label: string, expectations: Readonly<Record<string, Expectation>>): Judge<HistoryItem[]> {
  const judge = valueFields(label, expectations);
  return (items) => {
    const m = only(items, clientId)?.message;
    return m ? judge(m) : fail(label, `message ${clientId} is not in the history`);
  };
}

/** The message fields each §2.7 type carries in a history element ("empty values may be omitted": only these). */
export type ElementType = 'text' | 'picture' | 'location' | 'contact';

const TYPE_FIELDS: Readonly<Record<ElementType, Record<string, object>>> = {
  text: { text: { type: 'string' } },
  picture: { media: { type: 'string' }, file_name: { type: 'string' }, file_size: { type: 'integer' } },
  location: { location: { type: 'object', required: ['lon', 'lat'] } },
  contact: { contact: { type: 'object', required: ['name', 'phone'] } },
};

/**
 * The element of the message stored under `clientId`, sent as a message of `type`, carries the fields of the §4.3
 * history table with their types: timestamp, msec_timestamp, sender with its id, and the message's id, client_id,
 * type and the fields of its type.
 */
export function elementOfType(clientId: string, type: ElementType): Judge<HistoryItem[]> {
  const fields = TYPE_FIELDS[type];
  const name = `${type} element`;
  const judge = valueMatchesSchema(name, {
    type: 'object', required: ['timestamp', 'msec_timestamp', 'sender', 'message'], properties: {
      timestamp: { type: 'integer' }, msec_timestamp: { type: 'integer' }, sender: { type: 'object', required: ['id'] },
      message: { type: 'object', required: ['id', 'client_id', 'type', ...Object.keys(fields)], properties: { id: { type: 'string' }, client_id: { const: clientId }, type: { const: type }, ...fields } },
    },
  });
  return (items) => {
    const item = only(items, clientId);
    return item ? judge(item) : fail(name, 'missing from the history');
  };
}

/** The messages of each kind (§4.3 message kinds) a rule sent to one conversation, by msgid, and the client's id. */
export interface KindsSent {
  readonly clientId: string;
  readonly incoming: string;
  readonly manager: string;
  readonly bot: string;
}

/**
 * The history tells the kinds apart: the client's message carries its client_id and no receiver; a manager's and the
 * bot's carry no client_id on the sender ("client_id only for external participants", §2.5 "absent for account
 * users") and the client as receiver. A sender's client_id of null or "" (absent spelt otherwise) is non_strict (C9
 * of the review); any of the three messages missing fails.
 */
export function kindsTold(sent: KindsSent): Judge<HistoryItem[]> {
  const name = 'kinds in history';
  return (items) => {
    const incoming = only(items, sent.incoming);
    const outgoing = [['manager', only(items, sent.manager)], ['bot', only(items, sent.bot)]] as const;
    if (!incoming || outgoing.some(([, item]) => !item)) return fail(name, `expected the 3 messages in the history, observed ${items.length}`);
    const problems: string[] = [];
    const emptied: string[] = [];
    if (incoming.sender?.client_id !== sent.clientId) problems.push(`incoming sender.client_id is ${show(incoming.sender?.client_id)}, not ${sent.clientId}`);
    if (incoming.receiver && Object.keys(incoming.receiver).length > 0) problems.push('the incoming message has a receiver');
    for (const [kind, item] of outgoing) {
      const cid: unknown = item!.sender?.client_id;
      if (cid === null || cid === '') emptied.push(`the ${kind} sender has client_id ${show(cid)} (absent is stated)`);
      else if (cid !== undefined) problems.push(`the ${kind} sender has client_id ${show(cid)} (client_id is only for external participants)`);
      if (item!.receiver?.client_id !== sent.clientId) problems.push(`the ${kind} message's receiver.client_id is ${show(item!.receiver?.client_id)}, not the client ${sent.clientId}`);
    }
    if (problems.length > 0) return fail(name, problems.join('; '));
    return emptied.length > 0
      ? nonStrict(name, `"absent" spelt otherwise (C9 of the review): ${emptied.join('; ')}`)
      : pass(name, 'client_id on the client only, receivers on outgoing messages');
  };
}

/** Records what a history request answered: its status, and with 200 how many messages. */
export function historyAnswerObserved(name: string): Check {
  return (res) => observed(name, `answered ${res.status}${res.status === 200 ? ` with ${historyItemsOf(res).length} message(s)` : ''}`);
}

/** Records whether the element of a media message carries media_group_id and thumbnail (the spec names no case). */
export function mediaGroupObserved(clientId: string): Judge<HistoryItem[]> {
  return (items) => {
    const m = only(items, clientId)?.message;
    return observed('media_group_id', `${m?.media_group_id === undefined ? 'absent' : `present (${String(m.media_group_id)})`}; thumbnail ${m?.thumbnail === undefined ? 'absent' : 'present'}`);
  };
}

/** A message as a rule sent it: its msgid and the message time, relative to the others' (ms). */
export interface TimedMessage {
  readonly msgid: string;
  readonly at: number;
}

/**
 * Records the order the history lists messages in, for messages `sent` in this (arrival) order with message times out
 * of that order: by message time or by arrival, oldest or newest first, or another.
 */
export function historyOrderObserved(sent: readonly TimedMessage[]): Judge<HistoryItem[]> {
  const byTime = [...sent].sort((a, b) => a.at - b.at).map((x) => x.msgid).join();
  const byArrival = sent.map((x) => x.msgid).join();
  const reversed = (list: string) => list.split(',').reverse().join();
  return (items) => {
    const seen = items.map((i) => i.message?.client_id).join();
    const order = seen === byTime ? 'by message time, oldest first'
      : seen === reversed(byTime) ? 'by message time, newest first'
        : seen === byArrival ? 'by arrival, oldest first'
          : seen === reversed(byArrival) ? 'by arrival, newest first' : 'another order';
    return observed('history order', order);
  };
}

const ids = (items: readonly HistoryItem[]) => items.map((i) => String(i.message?.client_id));

/**
 * A chat longer than one page, read page by page (§4.3 offset "Records skipped from the start", limit "Records per
 * request"): the pages join into every message written exactly once, nothing else, each page full but the last. The
 * order is not stated (chat.model.order records it): by message time either way is named in the detail.
 */
export function pagesJoinAsWritten(written: readonly string[], limit: number): Judge<readonly (readonly HistoryItem[])[]> {
  const name = `pages of ${limit} join as written`;
  return (pages) => {
    const joined = pages.flatMap(ids);
    const counts = new Map<string, number>();
    for (const id of joined) counts.set(id, (counts.get(id) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    const missing = written.filter((id) => !counts.has(id));
    const other = joined.filter((id) => !written.includes(id));
    const sizes = pages.map((p) => p.length).join(', ');
    const short = pages.slice(0, -1).findIndex((p) => p.length < limit);
    const problems = [
      ...(twice.length > 0 ? [`${twice.length} message(s) on more than one page (${twice.slice(0, 3).join(', ')})`] : []),
      ...(missing.length > 0 ? [`${missing.length} message(s) on no page (${missing.slice(0, 3).join(', ')})`] : []),
      ...(other.length > 0 ? [`${other.length} message(s) never written`] : []),
    ];
    if (problems.length > 0) return fail(name, `expected the ${written.length} messages once each over the pages, observed pages of ${sizes}: ${problems.join('; ')}`);
    if (short >= 0) return nonStrict(name, `page ${short + 1} holds fewer than ${limit} messages while more follow (pages of ${sizes}; C52)`);
    const order = joined.join() === written.join() ? 'oldest first' : joined.join() === [...written].reverse().join() ? 'newest first' : 'in another order';
    return pass(name, `${written.length} messages once each over pages of ${sizes}, by message time ${order}`);
  };
}

/** Pages of another size list the messages in the same sequence as the pages of 50: one order, whatever the page boundaries. */
export function sameSequenceAs(reference: readonly (readonly HistoryItem[])[] | undefined, limit: number): Judge<readonly (readonly HistoryItem[])[]> {
  const name = `pages of ${limit} in the order of pages of 50`;
  return (pages) => {
    const want = (reference ?? []).flatMap(ids);
    const seen = pages.flatMap(ids);
    const at = seen.findIndex((id, i) => id !== want[i]);
    if (at < 0 && seen.length === want.length) return pass(name, `${seen.length} messages in one sequence`);
    return fail(name, `expected the sequence the pages of 50 gave (${want.length} messages), observed ${seen.length} with ${at < 0 ? 'a different length' : `message ${at + 1} ${seen[at]} where the pages of 50 have ${want[at] ?? 'none'}`}`);
  };
}
