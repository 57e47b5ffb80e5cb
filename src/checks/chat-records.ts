/**
 * Checks of chat answers the spec states loosely or not at all (§4.3 bodies, §7 error bodies, duplicate msgids) and of
 * the ground truth of comment conversations: one job each. The `observed…` ones belong to `info` rules and never judge.
 */
import type { Check, Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, nonStrict, observed, pass } from '../model/outcome.js';
import { parseJson } from './json.js';
import type { ConversationView, HistoryItem } from '../protocol/answers.js';

const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v)?.slice(0, 100) ?? String(v));

/**
 * "Response 200 with no body" (§4.3 disconnect, delivery status, reaction): an empty body passes; a body on a 200 is non_strict (something is sent
 * where nothing is said, docs/verdicts.md "One observation, one verdict": only this rule judges it); a body on a 204
 * fails, since HTTP forbids one there (RFC 9110 §15.3.5).
 */
export const noBody: Check = (res) => {
  const text = res.text.trim();
  if (text === '') return pass('no body', 'empty');
  if (res.status === 204) return fail('no body', `a 204 carries a body: ${text.slice(0, 80)}`);
  return nonStrict('no body', `expected no body, observed ${text.slice(0, 80)}`);
};

/** The top-level keys of a JSON object body, sorted (none when the body is not an object). */
function topKeys(res: HttpResponse): string[] {
  const b = parseJson(res);
  return b !== null && typeof b === 'object' && !Array.isArray(b) ? Object.keys(b).sort() : [];
}

/** Records an error answer's status, media type and top-level keys (§7: "Structure of the error body: not shown"). */
export function observedErrorBody(family: string): Check {
  return (res) => {
    const type = res.headers['content-type'] ?? 'no content-type';
    const keys = topKeys(res);
    const shape = keys.length > 0 ? `keys ${keys.join(', ')}` : res.text.trim() === '' ? 'no body' : `a non-object body ${show(res.text.slice(0, 40))}`;
    return observed('error body', `${family}: ${res.status}, ${type}, ${shape}`);
  };
}

/** Two new_message events sent with one msgid and different texts: both answers and what the history then holds. */
export interface DuplicateSeen {
  readonly first: number;
  readonly second: number;
  readonly msgid: string;
  readonly texts: readonly [string, string];
  readonly items: readonly HistoryItem[];
}

/** Records how a target treats a repeated msgid (§4.3 is silent): the answers, how many elements, and which text stayed. */
export const observedDuplicate: Judge<DuplicateSeen> = (o) => {
  const held = o.items.filter((i) => i.message?.client_id === o.msgid);
  const texts = held.map((i) => i.message?.text);
  const which = texts.length === 1 ? (texts[0] === o.texts[0] ? 'the first text' : texts[0] === o.texts[1] ? 'the second text' : `the text ${show(texts[0])}`) : `texts ${show(texts)}`;
  return observed('duplicate msgid', `answered ${o.first} then ${o.second}; the history holds ${held.length} element(s) under the msgid (${which})`);
};

/** One post conversation holds the post's comments: exactly one conversation for the post, with `count` messages. */
export function postConversationHolds(postId: string, count: number): Judge<readonly ConversationView[]> {
  return (conversations) => {
    const posts = conversations.filter((c) => c.kind === 'post');
    const mine = posts.filter((c) => c.post_id === postId);
    const shape = posts.map((c) => `${c.post_id ?? '?'}=${c.message_count}`).join(', ') || 'none';
    return mine.length === 1 && posts.length === 1 && mine[0]!.message_count === count
      ? pass('post conversation', `${postId}: ${count} comments`)
      : fail('post conversation', `expected one post conversation ${postId} holding ${count} comments, observed post conversations ${shape}`);
  };
}

/**
 * The conversations of one chat are exactly these, each holding its count of messages: `private` for the private
 * conversation, `post:<post_id>` for the one of each commented post (§4.3 "Send a comment").
 */
export function conversationsAre(expected: Readonly<Record<string, number>>): Judge<readonly ConversationView[]> {
  const shape = (entries: readonly (readonly [string, number])[]) => entries.map(([k, n]) => `${k}=${n}`).sort().join(', ');
  const want = shape(Object.entries(expected));
  return (conversations) => {
    const seen = shape(conversations.map((c) => [c.kind === 'post' ? `post:${c.post_id ?? '?'}` : c.kind, c.message_count] as const));
    return seen === want ? pass('conversations', seen) : fail('conversations', `expected ${want}; observed ${seen || 'none'}`);
  };
}

/** The conversation holds `n` messages: an edit or a refused request added none. */
/** Every message of a chat longer than one page, read page by page: §8's 50 per request is a page, not the history's length. */
export function everyMessageRead(n: number): Judge<readonly HistoryItem[]> {
  return (items) => items.length >= n
    ? pass('every message read page by page', `${items.length} message(s) over the pages`)
    : fail('every message read page by page', `expected the ${n} messages of the chat over its pages, observed ${items.length}`);
}

export function holdsMessages(n: number): Judge<readonly HistoryItem[]> {
  return (items) => items.length === n
    ? pass('no message added', `${n} message(s)`)
    : fail('no message added', `expected the conversation to hold ${n} message(s), observed ${items.length}: ${items.map((i) => show(i.message?.client_id)).join(', ')}`);
}
