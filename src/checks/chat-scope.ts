/**
 * Checks of refusals where the spec says "refused" or "not connected" without naming a code (§2.4, §3.2): any 4xx is
 * the refusal, a 2xx is the opposite of it (docs/design.md §2: the class decides, not the exact code).
 */
import type { Check } from '../model/check.js';
import { fail, nonStrict, pass } from '../model/outcome.js';
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

/** A field the request left out is its default or absent ("empty values may be omitted"). */
export function defaultOrAbsent(field: string, value: unknown): Check {
  return (res) => {
    const body = parseJson(res);
    const seen = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
    return seen === undefined || seen === value
      ? pass(`${field} default`, seen === undefined ? 'absent' : JSON.stringify(seen))
      : fail(`${field} default`, `expected ${JSON.stringify(value)} (the default) or no value, observed ${JSON.stringify(seen)}`);
  };
}
