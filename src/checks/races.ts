/**
 * Judges of parallel exchanges of one single-use credential (§2.2 "exchangeable once only", RFC 6749 §4.1.2): each
 * judges the answers of one race.
 */
import type { Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, pass } from '../model/outcome.js';

const statuses = (answers: readonly HttpResponse[]) => answers.map((r) => r.status).join(', ');

/** Exactly one of the racing exchanges succeeded (one must: the credential was valid; more breaks single use). */
export const exactlyOneSucceeded: Judge<readonly HttpResponse[]> = (answers) => {
  const winners = answers.filter((r) => r.status === 200).length;
  return winners === 1
    ? pass('single use', `one of ${answers.length} parallel exchanges succeeded (statuses ${statuses(answers)})`)
    : fail('single use', `expected exactly one of ${answers.length} parallel exchanges to succeed, observed ${winners} (statuses ${statuses(answers)})`);
};

/** Every other racing exchange was refused with a 4xx (a 5xx is failed by the runner already). */
export const othersRefused: Judge<readonly HttpResponse[]> = (answers) => {
  const odd = answers.filter((r) => r.status !== 200 && (r.status < 400 || r.status >= 500));
  return odd.length === 0
    ? pass('others refused', 'every other exchange got a 4xx')
    : fail('others refused', `expected the losing exchanges to get a 4xx, observed ${statuses(odd)}`);
};

/** Every value differs from the others (each Allow mints its own code). */
export function allDistinct(what: string): Judge<readonly string[]> {
  return (values) => {
    const distinct = new Set(values).size;
    return distinct === values.length
      ? pass(`distinct ${what}`, `${values.length} ${what}, all different`)
      : fail(`distinct ${what}`, `expected ${values.length} different ${what}, observed ${distinct} distinct`);
  };
}

/** The integration is not installed in `accountId` (the control API's installed_in list). */
export function notInstalledIn(accountId: number): Judge<readonly number[]> {
  return (installedIn) => installedIn.includes(accountId)
    ? fail('nothing installed', `expected no installation in account ${accountId} after Deny, observed one`)
    : pass('nothing installed', `not installed in account ${accountId}`);
}
