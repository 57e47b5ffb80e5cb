/**
 * Judges of several answers to requests sent together (parallel creations of one chat, parallel messages to one
 * conversation), and a check that says what one status means where a status check alone would not.
 */
import type { Check, Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, pass, worstFinding } from '../model/outcome.js';

/**
 * `check` on every answer, summed up in one finding: the worst one, naming which answer of how many it judged (a
 * failed answer decides, else a non_strict one); every answer passing is one pass. No answer at all fails.
 */
export function eachAnswer(check: Check): Judge<readonly HttpResponse[]> {
  return (answers) => {
    const findings = answers.map((r) => check(r));
    const worst = worstFinding(findings);
    if (!worst) return fail('each answer', 'expected answers to judge, observed none');
    if (worst.verdict === 'passed') return pass(`each: ${worst.check}`, `${answers.length} answers (statuses ${answers.map((r) => r.status).join(', ')})`);
    return { ...worst, check: `each: ${worst.check}`, detail: `answer ${findings.indexOf(worst) + 1} of ${answers.length}: ${worst.detail}` };
  };
}

/**
 * Fails an answer with status `code`, saying what that status means here (`meaning`); any other status passes, for
 * the status check beside it to judge. For a code that tells the reader more than "not the stated one".
 */
export function notAnsweredWith(code: number, name: string, meaning: string): Check {
  return (res) => (res.status === code ? fail(name, meaning) : pass(name, `status ${res.status}, not ${code}`));
}
