/**
 * Checks of `info` rules: they record what the target did where the spec leaves it open, never judge it.
 */
import type { Check, Judge } from '../model/check.js';
import { observed } from '../model/outcome.js';
import { briefBody } from './status.js';

/** Records the status of an answer, with what a 2xx and a 4xx would mean for the point the rule records. */
export function statusObserved(name: string, meaning: { readonly accepted: string; readonly refused: string }): Check {
  return (res) => observed(name, `${res.status}: ${res.status < 300 ? meaning.accepted : meaning.refused}${res.status >= 300 ? briefBody(res) : ''}`);
}

/** The skew of Date a target accepts, measured each way from its clock (a sentence for each). */
export interface SkewWindows {
  readonly past: string;
  readonly future: string;
}

/** Records how far Date may be from the target clock, as measured each way (the spec says only "current time"). */
export const skewObserved: Judge<SkewWindows> = (m) =>
  observed('Date skew', `Date in the past: ${m.past}; in the future: ${m.future}`);
