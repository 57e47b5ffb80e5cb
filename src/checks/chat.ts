/**
 * Checks of chat interface answers (§2.4, §4.3): one job each, named after the field they judge.
 */
import { fail, nonStrict, pass } from '../model/outcome.js';
import { parseJson } from './json.js';
import type { Check, Judge } from '../model/check.js';
import type { HistoryItem } from '../protocol/answers.js';

const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v)?.slice(0, 80) ?? String(v));

function body(res: Parameters<Check>[0]): Record<string, unknown> | undefined {
  const b = parseJson(res);
  return b !== null && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : undefined;
}

/** Connect answers the request fields plus a string `scope_id` (§4.3, §2.4); account_id not echoed is non_strict (C1 of the review). */
export function connectAnswer(accountId: string): Check {
  return (res) => {
    const b = body(res);
    if (!b) return fail('connect answer', 'expected a JSON object with scope_id, observed none');
    if (typeof b.scope_id !== 'string' || b.scope_id === '') return fail('connect answer', `expected scope_id, a non-empty string; observed ${show(b.scope_id)}`);
    if (b.account_id === undefined) return nonStrict('connect answer', `scope_id ${b.scope_id}; account_id (a request field) not echoed`);
    if (b.account_id !== accountId) return fail('connect answer', `expected account_id ${accountId} (the request field), observed ${show(b.account_id)}`);
    return pass('connect answer', `scope_id ${b.scope_id}`);
  };
}

/** Create chat answers `id` (string) and the `user` with `client_id` = the integration-side id sent (§4.3, §2.5). */
export function createdChat(clientId: string): Check {
  return (res) => {
    const b = body(res);
    if (!b || typeof b.id !== 'string' || b.id === '') return fail('created chat', `expected id, a non-empty string; observed ${show(b?.id)}`);
    const user = b.user as Record<string, unknown> | undefined;
    if (!user || typeof user !== 'object') return fail('created chat', 'expected a user object, observed none');
    if (typeof user.id !== 'string' || user.id === '') return fail('created chat', `expected user.id, the user's chat-interface id (a non-empty string); observed ${show(user.id)}`);
    if (user.client_id !== clientId) return fail('created chat', `expected user.client_id ${clientId}, observed ${show(user.client_id)}`);
    if (typeof user.name !== 'string') return fail('created chat', `expected user.name, a string; observed ${show(user.name)}`);
    return pass('created chat', `chat ${b.id}`);
  };
}

/**
 * A new or edited message answers `{"new_message":{conversation_id, sender_id, receiver_id, msgid, ref_id}}` (§4.3),
 * read as `answer-member` (docs/verdicts.md): a listed member missing is non_strict, except msgid, the "Message id in
 * the chat interface" by which alone the integration can name the message on the chat interface's paths (delivery
 * status): missing, it fails (R2-C7). A member of another type or value fails. receiver_id is a string for an
 * outgoing message; an incoming message has no receiver ("no payload.receiver"), so its receiver_id is null: a value
 * there fails, "" ("empty" spelt otherwise) or receiver_id missing is non_strict (R2-C8). Where the rule knows them,
 * the ids are compared with what was sent (issue 20): conversation_id names the message's own chat; sender_id ("Sender
 * id", no side named) may be any id of the sender, one the kit has not seen included (R2-C9), but not the id of
 * something else the kit knows (the chat, the receiver).
 */
export interface NewMessageExpectation {
  readonly msgid: string;
  readonly conversationId: string;
  readonly outgoing: boolean;
  /**
   * The chat-interface id of the message's chat, when the rule knows it (create chat answered it): "Dialog id" names
   * neither side, so conversation_id is the conversation_id sent or this id; another chat's id fails. Unknown, any
   * string passes.
   */
  readonly chatId?: string;
  /** The ids the sender is known by: its integration-side id sent and its chat-interface id, when known. */
  readonly senderIds?: readonly string[];
  /** The same for the receiver of an outgoing message. */
  readonly receiverIds?: readonly string[];
}

export function newMessageAnswer(expect: NewMessageExpectation): Check {
  return (res) => {
    const b = body(res);
    const nm = b?.new_message as Record<string, unknown> | undefined;
    if (!nm || typeof nm !== 'object') return fail('new_message', `expected a new_message object, observed ${show(b)}`);
    const problems: string[] = [];
    const missing: string[] = [];
    const member = (key: string, ok: (v: unknown) => boolean, what: string): void => {
      if (!Object.hasOwn(nm, key)) missing.push(key);
      else if (!ok(nm[key])) problems.push(`${key} ${show(nm[key])} is not ${what}`);
    };
    const among = (ids: readonly string[] | undefined) => (v: unknown) => typeof v === 'string' && (ids === undefined || ids.includes(v));
    const dialog = expect.chatId === undefined ? undefined : [expect.conversationId, expect.chatId];
    member('conversation_id', among(dialog), dialog ? `the message's own chat (${dialog.join(' or ')})` : 'a string');
    // Ids the kit knows to name something other than the sender: the chat, and an outgoing message's receiver.
    const others = [...(expect.chatId !== undefined ? [expect.chatId] : []), ...(expect.outgoing ? expect.receiverIds ?? [] : [])]
      .filter((id) => !(expect.senderIds ?? []).includes(id));
    member('sender_id', (v) => typeof v === 'string' && v !== '' && !others.includes(v), `the sender's id${others.length > 0 ? ` (not ${others.join(' or ')}, which name the chat or the receiver)` : ''}`);
    const emptyReceiver = !expect.outgoing && nm.receiver_id === '';
    member('receiver_id', expect.outgoing ? among(expect.receiverIds) : (v) => v === null || v === '',
      expect.outgoing ? `a string, the client of an outgoing message${expect.receiverIds ? ` (${expect.receiverIds.join(' or ')})` : ''}` : 'null (an incoming message has no receiver)');
    member('msgid', (v) => typeof v === 'string' && v !== '', 'a non-empty string');
    member('ref_id', (v) => v === expect.msgid, `the msgid sent (${expect.msgid})`);
    if (missing.includes('msgid')) problems.push('msgid missing: the message\'s id in the chat interface is the one handle the integration has on it');
    if (problems.length > 0) return fail('new_message', `expected the §4.3 new_message fields; ${problems.join('; ')}`);
    const lesser = [...(missing.length > 0 ? [`${missing.join(', ')} missing (answer-member: a listed member missing is non_strict)`] : []), ...(emptyReceiver ? ['receiver_id "" for an incoming message ("empty" spelt otherwise than null)'] : [])];
    if (lesser.length > 0) return nonStrict('new_message', `expected the §4.3 new_message fields; ${lesser.join('; ')}`);
    const seen = typeof nm.sender_id === 'string' && expect.senderIds && !expect.senderIds.includes(nm.sender_id) ? `; sender_id ${nm.sender_id}, an id of the sender the kit has not seen` : '';
    if (seen) return pass('new_message', `msgid ${String(nm.msgid)}${seen}`);
    return pass('new_message', `msgid ${String(nm.msgid)}`);
  };
}

/**
 * An edit's answer (C42): the spec states the new_message answer for messages; an edit answered 200 without it (no
 * body, or a body without new_message) passes, and one that carries it is judged as a new message's answer is.
 */
export function editAnswer(expect: NewMessageExpectation): Check {
  const judge = newMessageAnswer(expect);
  return (res) => (body(res)?.new_message === undefined ? pass('new_message', 'the edit answered without new_message (allowed)') : judge(res));
}

/** How often each integration-side message id appears in a history. */
export function countByClientId(items: readonly HistoryItem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const i of items) {
    const id = i.message?.client_id;
    if (typeof id === 'string') counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** A history holds each of `once` exactly once and none of `none` (one account's history untouched by another's). */
export function historyHolds(label: string, expect: { readonly once: readonly string[]; readonly none: readonly string[] }): Judge<readonly HistoryItem[]> {
  return (items) => {
    const counts = countByClientId(items);
    const problems = [
      ...expect.once.filter((id) => counts.get(id) !== 1).map((id) => `${id} ${counts.get(id) ?? 0} time(s)`),
      ...expect.none.filter((id) => counts.has(id)).map((id) => `${id}, which it must not hold`),
    ];
    return problems.length === 0
      ? pass(label, `${items.length} message(s), each expected one once`)
      : fail(label, `expected ${expect.once.join(', ')} once each and none of ${expect.none.join(', ') || 'nothing'}; the history holds ${items.length} message(s): ${problems.join('; ')}`);
  };
}

