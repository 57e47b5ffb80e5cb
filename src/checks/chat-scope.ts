/**
 * Checks of refusals where the spec says "refused" or "not connected" without naming a code (§2.4, §3.2): any 4xx is
 * the refusal, a 2xx is the opposite of it (docs/design.md §2: the class decides, not the exact code).
 */
import type { Check, Judge } from '../model/check.js';
import { fail, nonStrict, observed, pass } from '../model/outcome.js';
import { briefBody } from './status.js';
import { parseJson, showsValue } from './json.js';

/** A refused connect hands out no scope_id: nothing may be sent under a connection that was not made. */
export const noScopeId: Check = (res) => {
  const body = parseJson(res);
  const scope = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).scope_id : undefined;
  return scope === undefined ? pass('no scope_id') : fail('no scope_id', `expected no scope_id in a refused connect, observed ${JSON.stringify(scope)}`);
};

/**
 * Connect answers the request fields (§4.3 "the request fields plus scope_id"): each one sent, echoed as sent, compared
 * by value. Another value fails; a field left out of the answer is non_strict (docs/verdicts.md, "Answers": a listed
 * member missing from an answer).
 */
export function echoes(sent: Readonly<Record<string, unknown>>): Check {
  return (res) => {
    const body = parseJson(res);
    const b = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const missing = Object.keys(sent).filter((k) => b[k] === undefined);
    const differ = Object.keys(sent).filter((k) => b[k] !== undefined && !showsValue(b[k], sent[k]));
    if (differ.length > 0) return fail('request fields echoed', differ.map((k) => `${k} ${JSON.stringify(b[k])} is not ${JSON.stringify(sent[k])}`).join('; '));
    if (missing.length > 0) return nonStrict('request fields echoed', `not echoed: ${missing.join(', ')}`);
    return pass('request fields echoed', Object.keys(sent).join(', '));
  };
}

/**
 * A field the request left out is answered with its default (answer-member): the default passes; left out of the
 * answer is non_strict (a listed member missing, C2 and C4 of the review); another value fails.
 */
export function defaultOrAbsent(field: string, value: unknown): Check {
  return (res) => {
    const body = parseJson(res);
    const seen = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
    if (seen === undefined) return nonStrict(`${field} default`, `expected ${JSON.stringify(value)} (the default), observed no ${field} in the answer`);
    return showsValue(seen, value)
      ? pass(`${field} default`, JSON.stringify(seen))
      : fail(`${field} default`, `expected ${JSON.stringify(value)} (the default), observed ${JSON.stringify(seen)}`);
  };
}

/**
 * A request under a scope that is no longer connected (§3.2 "not connected"): the spec names no refusal, so any 4xx
 * passes and an acceptance is non_strict (C20, C21 of the review); anything else fails.
 */
export function refusedOrTaken(name = 'refused'): Check {
  return (res) => {
    if (res.status >= 400 && res.status < 500) return pass(name, `refused with ${res.status}`);
    if (res.status >= 200 && res.status < 300) return nonStrict(name, `expected a refusal (4xx), observed ${res.status}: the request was taken${briefBody(res)}`);
    return fail(name, `expected a refusal (4xx), observed ${res.status}${briefBody(res)}`);
  };
}

/**
 * A route under a scope_id that was never connected (§4.3, §7): 404 passes, and for history 204 too ("chat does not
 * exist"); another 4xx is non_strict; a success fails (C28 of the review).
 */
export function unknownScopeAnswer(history: boolean): Check {
  const name = 'unknown scope';
  return (res) => {
    if (res.status === 404 || (history && res.status === 204)) return pass(name, `status ${res.status}`);
    if (res.status >= 400 && res.status < 500) return nonStrict(name, `expected 404${history ? ' or 204' : ''}, observed ${res.status} (same class)`);
    return fail(name, `expected 404${history ? ' or 204' : ''} (no connection under that scope_id), observed ${res.status}${briefBody(res)}`);
  };
}

/**
 * What a forward naming another account's message stored (§2.4: a scope is one account's connection): nothing
 * (refused) or a quote without that message's content passes; the other account's text resolved into it fails.
 */
export function nothingResolvedFrom(text: string, what: 'forward' | 'quote' = 'forward'): Judge<{ readonly text?: string } | 'unseen' | undefined> {
  const name = 'nothing of the other account';
  return (quote) => {
    if (quote === undefined) return pass(name, `no ${what} stored`);
    // A stored message's quotes and forwards are read only through a control API: nothing was observed, so nothing is judged.
    if (quote === 'unseen') return observed(name, `the ${what} was taken; what it stored is read only through a control API (CONTROL_URL)`);
    return quote.text === text
      ? fail(name, `expected nothing of the second account's message in the first account's ${what}, observed its text "${text}" resolved into it`)
      : pass(name, `the ${what} holds ${quote.text === undefined ? 'no text' : `"${quote.text}"`}, not the second account's`);
  };
}

/**
 * The first scope's chat holds no comment of the other scope's (§2.4): none passes; B's comment there fails. Without
 * a control API comments are not read: a note, nothing judged.
 */
export function noCommentOf(other: string): Judge<readonly string[] | undefined> {
  const name = 'no comment in the first scope\'s chat';
  return (comments) => {
    if (comments === undefined) return observed(name, 'comments are read only through a control API (CONTROL_URL)');
    return comments.length === 0 ? pass(name, 'the first scope\'s chat holds no comment') : fail(name, `expected no comment in the first scope's chat, observed ${comments.length} (${other}'s comment under the same conversation_id)`);
  };
}
