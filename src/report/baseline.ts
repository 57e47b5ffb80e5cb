/**
 * `--baseline`: compares a run with an earlier report. A regression is a rule that held before (passed,
 * non_strict or informational) and fails now; a fix is the other way round; new rules are listed; a rule unjudged now
 * (errored, or skipped behind a refused step) that the baseline judged, or did not have, is newly unjudged.
 */
import { unjudged, type Report, type RuleResult } from '../model/result.js';

export interface Comparison {
  readonly regressions: readonly RuleResult[];
  readonly fixes: readonly RuleResult[];
  readonly added: readonly RuleResult[];
  readonly unjudged: readonly RuleResult[];
}

const HELD = new Set(['passed', 'non_strict', 'informational']);

export function compareWithBaseline(baseline: Report, current: Report): Comparison {
  const before = new Map(baseline.results.map((r) => [r.id, r]));
  const regressions: RuleResult[] = [];
  const fixes: RuleResult[] = [];
  const added: RuleResult[] = [];
  const newlyUnjudged: RuleResult[] = [];
  for (const r of current.results) {
    const old = before.get(r.id);
    if (unjudged(r) && !(old && unjudged(old))) newlyUnjudged.push(r);
    if (!old) added.push(r);
    else if (HELD.has(old.status) && r.status === 'failed') regressions.push(r);
    else if (old.status === 'failed' && HELD.has(r.status)) fixes.push(r);
  }
  return { regressions, fixes, added, unjudged: newlyUnjudged };
}
