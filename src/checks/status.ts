/**
 * Status-code checks. The verdict scale of docs/design.md §2: the stated code passes; another code of the same
 * class is non_strict (403 where 401 is stated); the opposite class or any 5xx fails.
 */
import type { Check } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, nonStrict, observed, pass } from '../model/outcome.js';

/**
 * `also`: other codes judged non_strict. `accepted`: how a 2xx is judged where a refusal is stated, when the reading of
 * what was sent calls its acceptance a lesser departure (an unmarked member missing, a value of another JSON type
 * coerced: non_strict) or an open point (an equivalent spelling: informational); by default it fails.
 */
export function status(expected: number, options: { also?: readonly number[]; accepted?: 'non_strict' | 'informational'; refused?: 'non_strict' | 'informational' } = {}): Check {
  const name = `status ${expected}`;
  return (res) => {
    if (res.status === expected) return pass(name, `status ${res.status}`);
    if (res.status >= 500) return fail(name, `expected ${expected}, observed ${res.status} (a server error)`);
    if (options.accepted && expected >= 400 && res.status >= 200 && res.status < 300) {
      const detail = `expected ${expected}, observed ${res.status}: accepted, which the reading of what was sent allows`;
      return options.accepted === 'non_strict' ? nonStrict(name, detail) : observed(name, detail);
    }
    if (options.refused && expected < 300 && res.status >= 400 && res.status < 500) {
      const detail = `expected ${expected}, observed ${res.status}: refused, which the reading of the statement allows${briefBody(res)}`;
      return options.refused === 'non_strict' ? nonStrict(name, detail) : observed(name, detail);
    }
    if (options.also?.includes(res.status)) return nonStrict(name, `expected ${expected}, observed ${res.status} (accepted as non-strict)`);
    if (Math.floor(res.status / 100) === Math.floor(expected / 100)) {
      return nonStrict(name, `expected ${expected}, observed ${res.status} (same class)`);
    }
    return fail(name, `expected ${expected}, observed ${res.status}${briefBody(res)}`);
  };
}

/** `check` judged only on a 2xx answer (what a success carries); another answer is judged by the status check alone. */
export function whenAccepted(check: Check): Check {
  return (res) => (res.status >= 200 && res.status < 300 ? check(res) : pass('answer body', `status ${res.status}: no success body to judge`));
}

/** `check` judged only on a 4xx answer (what a refusal carries); an accepted request is judged by the status check alone. */
export function whenRefused(check: Check): Check {
  return (res) => (res.status >= 400 && res.status < 500 ? check(res) : pass('refusal body', `status ${res.status}: no refusal body to judge`));
}

/** Any 4xx: the request is refused, whatever the code. For rules where the spec says "refused" without a code. */
export function refused(stated = 400): Check {
  return status(stated);
}

/** Exactly one of these codes (`statusIn(200, 204)`): no class-level leniency, a 5xx always fails. */
export function statusIn(...codes: readonly number[]): Check {
  const name = codes.length === 1 ? `status ${codes[0]}` : `status ${codes.join(' or ')}`;
  return (res) => codes.includes(res.status)
    ? pass(name, `status ${res.status}`)
    : fail(name, `expected ${codes.join(' or ')}, observed ${res.status}${res.status >= 500 ? ' (a server error)' : briefBody(res)}`);
}

/** Refused, whatever the code: for steps where the spec says a request is refused and names no code. */
export function clientError(name = 'refused', options: { accepted?: 'non_strict' } = {}): Check {
  return (res) => {
    if (res.status >= 400 && res.status < 500) return pass(name, `refused with ${res.status}`);
    // `accepted`: a 2xx the reading of what was sent calls a lesser departure (as `status`'s option).
    if (options.accepted && res.status >= 200 && res.status < 300) return nonStrict(name, `expected a refusal (4xx), observed ${res.status}: accepted, which the reading of what was sent allows`);
    return fail(name, `expected a refusal (4xx), observed ${res.status}${briefBody(res)}`);
  };
}

/** `info` rules: the answer's status, reported and not judged; `json200` is added when a 200 carries a JSON body. */
export function observedStatus(name: string, options: { json200?: string } = {}): Check {
  return (res) => {
    let note = '';
    if (options.json200 && res.status === 200) {
      try {
        if (JSON.parse(res.text)) note = ` ${options.json200}`;
      } catch {
        // not JSON: nothing to add
      }
    }
    return observed(name, `answered ${res.status}${note}`);
  };
}

/** Robustness (`should`): whatever the answer, it is not a server error. */
export const noServerError: Check = (res) => noServerErrorFor(undefined)(res);

/** noServerError, a 5xx naming what was sent (`context`), to reproduce it. */
export function noServerErrorFor(context: string | undefined): Check {
  return (res) =>
    res.status >= 500
      ? fail('no 5xx', `expected a 2xx or 4xx answer, observed ${res.status}${briefBody(res)}${context === undefined ? '' : ` for ${context}`}`)
      : pass('no 5xx', `status ${res.status}`);
}

export function briefBody(res: HttpResponse): string {
  const text = res.text.trim();
  if (!text) return '';
  return `: ${text.length > 160 ? `${text.slice(0, 160)}…` : text}`;
}
