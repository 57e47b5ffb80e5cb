/**
 * Judges of races: parallel exchanges of one single-use credential (§2.2 "exchangeable once only", RFC 6749 §4.1.2),
 * and parallel chat requests on one record (§4.3). Each judges the answers of one race, or what it left.
 */
import type { Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, nonStrict, pass } from '../model/outcome.js';
import { jsonAt, shown } from './fields.js';

const statuses = (answers: readonly HttpResponse[]) => answers.map((r) => r.status).join(', ');

/**
 * Exactly one of the racing exchanges succeeded (the credential was valid; more breaks single use, REQ-3.1-code-concurrent-single-use):
 * two or more winners fail; none at all is non_strict (still single use, K13).
 */
export const exactlyOneSucceeded: Judge<readonly HttpResponse[]> = (answers) => {
  const winners = answers.filter((r) => r.status >= 200 && r.status < 300).length;
  if (winners === 1) return pass('single use', `one of ${answers.length} parallel exchanges succeeded (statuses ${statuses(answers)})`);
  return winners === 0
    ? nonStrict('single use', `expected one of ${answers.length} parallel exchanges to succeed, observed none (statuses ${statuses(answers)}): still single use`)
    : fail('single use', `expected exactly one of ${answers.length} parallel exchanges to succeed, observed ${winners} (statuses ${statuses(answers)})`);
};

/** Every other racing exchange was refused with a 4xx (a 5xx is failed by the runner already). */
export const othersRefused: Judge<readonly HttpResponse[]> = (answers) => {
  const odd = answers.filter((r) => (r.status < 200 || r.status >= 300) && (r.status < 400 || r.status >= 500));
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

// ---- parallel chat requests (§4.3): connects, sends of one msgid, edits of one message

/** Every racing request was answered `code` (another 2xx is non_strict, as `status` judges one answer). */
export function eachAnswered(code: number): Judge<readonly HttpResponse[]> {
  const name = `each ${code}`;
  return (answers) => {
    if (answers.every((r) => r.status === code)) return pass(name, `${answers.length} × ${code}`);
    if (answers.every((r) => r.status >= 200 && r.status < 300)) return nonStrict(name, `expected ${code} from each of ${answers.length} parallel requests, observed ${statuses(answers)}`);
    return fail(name, `expected ${code} from each of ${answers.length} parallel requests, observed ${statuses(answers)}`);
  };
}

/**
 * One of the racing requests was accepted (200) and each other one either accepted too or refused with a 4xx: the spec
 * does not say whether a request that lost a race is refused, but it may not be lost without an answer.
 */
export const acceptedOrRefused: Judge<readonly HttpResponse[]> = (answers) => {
  const accepted = answers.filter((r) => r.status === 200).length;
  const odd = answers.filter((r) => (r.status < 200 || r.status >= 300) && (r.status < 400 || r.status >= 500));
  if (accepted === 0) return fail('accepted or refused', `expected at least one of ${answers.length} parallel requests accepted, observed ${statuses(answers)}`);
  if (odd.length > 0) return fail('accepted or refused', `expected each parallel request accepted (200) or refused (4xx), observed ${statuses(answers)}`);
  const rest = accepted === answers.length ? '' : `, the others refused (statuses ${statuses(answers)})`;
  return pass('accepted or refused', `${accepted} of ${answers.length} accepted${rest}`);
};

/** The answers to one msgid sent at once: accepted or refused, as `acceptedOrRefused` judges them. */
export const repeatsAnswered: Judge<RepeatSeen> = (seen) => acceptedOrRefused(seen.answers);

/** Every racing answer names one and the same non-empty string at `field` (one connection: one scope_id). */
export function oneValueAt(field: string): Judge<readonly HttpResponse[]> {
  return (answers) => {
    const values = answers.map((r) => jsonAt(r, field));
    const seen = [...new Set(values)];
    if (seen.length === 1 && typeof seen[0] === 'string' && seen[0] !== '') return pass(`one ${field}`, String(seen[0]));
    return fail(`one ${field}`, `expected one ${field} in the ${answers.length} answers, observed ${seen.length}: ${seen.map(shown).join(', ').slice(0, 300)}`);
  };
}

/**
 * Parallel requests that must each succeed, where a request that lost the race may be told so (C23 of the review):
 * each `code` passes; another 2xx, or a 4xx (409 Conflict, 429 Too Many Requests) beside at least one success, is
 * non_strict; no success at all, or an answer outside 2xx/4xx, fails.
 */
export function eachAnsweredOrBusy(code: number): Judge<readonly HttpResponse[]> {
  const name = `each ${code}`;
  return (answers) => {
    const ok = answers.filter((r) => r.status >= 200 && r.status < 300).length;
    const refused = answers.filter((r) => r.status >= 400 && r.status < 500).length;
    if (answers.every((r) => r.status === code)) return pass(name, `${answers.length} × ${code}`);
    if (ok > 0 && ok + refused === answers.length) return nonStrict(name, `expected ${code} from each of ${answers.length} parallel requests, observed ${statuses(answers)}: ${ok} accepted, ${refused} refused`);
    return fail(name, `expected ${code} from each of ${answers.length} parallel requests, observed ${statuses(answers)}`);
  };
}

/**
 * Parallel requests the spec says are accepted (§4.3 "Response 200 (accepted for processing …)"): each `code` passes;
 * another 2xx, or a 429 (§8 "Rate limits: not shown": a limit is never a failure in itself), is non_strict (R2-C17);
 * any other answer fails.
 */
export function eachAcceptedOrLimited(code: number): Judge<readonly HttpResponse[]> {
  const name = `each ${code}`;
  return (answers) => {
    if (answers.length > 0 && answers.every((r) => r.status === code)) return pass(name, `${answers.length} × ${code}`);
    const lesser = (r: HttpResponse) => (r.status >= 200 && r.status < 300) || r.status === 429;
    return answers.length > 0 && answers.every((r) => r.status === code || lesser(r))
      ? nonStrict(name, `expected ${code} from each of ${answers.length} parallel requests, observed ${statuses(answers)} (another 2xx, or a rate limit)`)
      : fail(name, `expected ${code} from each of ${answers.length} parallel requests, observed ${statuses(answers)}`);
  };
}

/** Every successful (2xx) racing answer names one and the same non-empty string at `field`; refusals name none. */
export function oneValueAmongAccepted(field: string): Judge<readonly HttpResponse[]> {
  const among = oneValueAt(field);
  return (answers) => {
    const accepted = answers.filter((r) => r.status >= 200 && r.status < 300);
    return accepted.length === 0 ? fail(`one ${field}`, `expected ${field} in an accepted answer, observed none accepted (statuses ${statuses(answers)})`) : among(accepted);
  };
}

/** One msgid sent several times to a conversation of its own, in sequence or in parallel, and what the history then holds. */
export interface RepeatSeen {
  readonly how: 'in sequence' | 'in parallel';
  readonly answers: readonly HttpResponse[];
  readonly msgid: string;
  /** Elements of the conversation's history stored under the msgid. */
  readonly held: number;
  /** Elements of the conversation's history in all. */
  readonly total: number;
}

/**
 * The history left by the parallel sends is the one the same sends left in sequence: as many elements under the msgid,
 * and no other element. The spec says nothing of a repeated msgid (chat.message.duplicate-msgid records it), so the
 * sequential history is the reference, not a guess of what the service should do.
 */
export function sameHistoryAs(sequential: RepeatSeen): Judge<RepeatSeen> {
  return (parallel) => parallel.held === sequential.held && parallel.total === sequential.total
    ? pass('same history', `${parallel.held} element(s) under the msgid ${parallel.how}, as ${sequential.how}`)
    : fail('same history', `expected what ${sequential.answers.length} sends ${sequential.how} left (${sequential.held} element(s) under the msgid, ${sequential.total} in all), observed ${parallel.held} under the msgid and ${parallel.total} in all after ${parallel.answers.length} sends ${parallel.how}`);
}

/** The message stored under `clientId` shows one of `texts` (the edit that won; which one is not stated). */
export function textOneOf(clientId: string, texts: readonly string[]): Judge<readonly { readonly message?: { readonly client_id?: string; readonly text?: string } }[]> {
  return (items) => {
    const text = items.find((i) => i.message?.client_id === clientId)?.message?.text;
    return text !== undefined && texts.includes(text)
      ? pass('one of the texts', shown(text))
      : fail('one of the texts', `expected message ${clientId} with one of ${texts.length} texts sent (${texts.map(shown).join(', ').slice(0, 120)}), observed ${shown(text)}`);
  };
}
