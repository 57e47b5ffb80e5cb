/**
 * The answer to one broken request member, judged by the reading its wording takes (docs/verdicts.md, "How a
 * statement's wording becomes a verdict"; src/model/readings.ts). Every sweep of broken members uses it, so that
 * the same breakage gets the same verdict wherever it is sent:
 *
 * - `required-member` (a member the spec calls required, missing): 400 passes, another 4xx is non_strict, accepted fails;
 * - `unmarked-member` (a member the table leaves unmarked, missing): 400 passes, another 4xx or accepted is non_strict;
 * - `wrong-type` (a member sent as another JSON type): 400 passes, another 4xx or accepted (coerced or ignored) is non_strict;
 * - `enumeration` (a value outside a set the spec enumerates): 400 passes, another 4xx is non_strict, accepted fails.
 *
 * A 5xx fails under every reading. The JSON Content-Type is judged only on a refusal (the spec states it for errors).
 */
import type { Check, Judge } from '../model/check.js';
import { isSuccess } from '../model/http.js';
import { fail, nonStrict, pass } from '../model/outcome.js';
import { jsonContentType } from './json.js';
import { briefBody } from './status.js';

export type CaseReading = 'required-member' | 'unmarked-member' | 'wrong-type' | 'enumeration';

/** Whether accepting the broken member is a departure the reading forgives (non_strict) or not (failed). */
const ACCEPTED_IS: Record<CaseReading, 'non_strict' | 'failed'> = {
  'required-member': 'failed',
  'unmarked-member': 'non_strict',
  'wrong-type': 'non_strict',
  enumeration: 'failed',
};

/** The answer to a request broken in one member, as `reading` judges it: refused with `stated` (400) passes. */
export function refusalAsRead(reading: CaseReading, stated = 400): Check {
  const name = `refused (${reading})`;
  return (res) => {
    if (res.status === stated) return pass(name, `status ${res.status}`);
    if (!isSuccess(res.status) && !(res.status >= 400 && res.status < 500)) return fail(name, `expected ${stated}, observed ${res.status}`);
    if (res.status >= 400 && res.status < 500) return nonStrict(name, `expected ${stated}, observed ${res.status} (another refusal)`);
    if (isSuccess(res.status) && ACCEPTED_IS[reading] === 'non_strict') {
      return nonStrict(name, `expected ${stated}, observed ${res.status}: accepted, which ${reading} reads as non_strict`);
    }
    return fail(name, `expected ${stated}, observed ${res.status}${isSuccess(res.status) ? ` (accepted; ${reading} fails that)` : ''}${briefBody(res)}`);
  };
}

/** The JSON Content-Type of a refusal; an acceptance is judged by the rule of its own answer. */
export const jsonContentTypeIfRefused: Check = (res) =>
  res.status >= 400 ? jsonContentType(res) : pass('JSON Content-Type', `not a refusal (${res.status})`);

/** The checks of one broken member's answer: the reading's verdict, and a refusal's Content-Type. */
export function refusalChecks(reading: CaseReading, stated = 400): Check[] {
  return [refusalAsRead(reading, stated), jsonContentTypeIfRefused];
}

/**
 * The same judges, recorded rather than judged: for an `info` rule (reading `open-point`), whose observation is
 * reported whatever it is. A 5xx, a reset or a hang still fails it (the runner decides those).
 */
export function recorded<S>(judges: readonly Judge<S>[]): Judge<S>[] {
  return judges.map((judge) => (subject: S) => {
    const f = judge(subject);
    return { ...f, verdict: 'informational' as const, detail: f.detail || (f.verdict === 'passed' ? 'as the natural reading expects' : f.verdict) };
  });
}

/**
 * A refusal the spec's wording asks for without making acceptance a failure (`stated-behaviour` rows read so: a reply
 * quoting another chat, a forward naming a chat that is not the integration's, a bot comment, an edit of a comment):
 * `stated` (400) passes, another 4xx or an acceptance is non_strict, a 5xx fails.
 */
export function refusalPreferred(name: string, stated = 400): Check {
  return (res) => {
    if (res.status === stated) return pass(name, `status ${res.status}`);
    if (!isSuccess(res.status) && !(res.status >= 400 && res.status < 500)) return fail(name, `expected ${stated}, observed ${res.status}`);
    return nonStrict(name, `expected ${stated}, observed ${res.status} (${isSuccess(res.status) ? 'accepted' : 'another answer'}; non_strict under this statement's reading)`);
  };
}

/**
 * The same judges, kept as notes of a `must` or `should` rule: a side observation its statement leaves open (C46:
 * whether a write-first chat is linked, which only the account shows) is reported in the detail and never changes the
 * rule's verdict (an `informational` finding would make the whole rule informational).
 */
export function keptAsNotes<S>(judges: readonly Judge<S>[]): Judge<S>[] {
  return judges.map((judge) => (subject: S) => {
    const f = judge(subject);
    return { ...f, verdict: 'passed' as const, detail: `recorded: ${f.detail || f.verdict}` };
  });
}
