/**
 * Edits that carry fields the spec says are ignored on edit (§4.3 payload table: source, sender, receiver, reply_to,
 * forwards "Ignored on edit"). "Ignored" says the field changes nothing; a server that refuses such an edit with 400
 * departs from it, which the review reads as non_strict (C43). The edit is then sent again without those fields, so the
 * rest of the rule still observes what the edit does to the message (the text changes, the ignored parts do not).
 */
import { withoutPaths } from '../../generators/chat-requests.js';
import type { Check } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { status } from '../checks/status.js';
import type { ChatSession } from './chat.js';

/** Posts the edit; when it is refused (4xx), posts it again without the `ignored` payload fields. The first answer. */
export async function editCarrying(s: ChatSession, body: { readonly payload: object }, ignored: readonly string[]): Promise<HttpResponse> {
  const res = await s.postEvent(body);
  if (res.status >= 400 && res.status < 500) await s.postEvent(withoutPaths(body, ignored.map((k) => ['payload', k])));
  return res;
}

/** The answer to an edit carrying ignored fields: 200 passes; 400 is non_strict (C43); any other answer fails. */
export const ignoredOnEdit: readonly Check[] = [status(200, { also: [400] })];
