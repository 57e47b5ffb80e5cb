/**
 * The exit code of a run or a merged report (docs/design.md §3): 0 when no `must` rule failed (with --strict, no
 * `should` either); against a baseline, only regressions count, and the comparison is printed.
 */
import type { Report } from '../model/result.js';
import type { Comparison } from '../report/baseline.js';

export function exitCode(report: Report, options: { strict: boolean; comparison?: Comparison }, err: NodeJS.WritableStream = process.stderr): number {
  const counts = (level: string) => level === 'must' || (options.strict && level === 'should');
  if (options.comparison) {
    const { regressions, fixes, added } = options.comparison;
    for (const r of regressions) err.write(`regression: ${r.id} (${r.level}) now fails: ${r.detail.slice(0, 160)}\n`);
    if (fixes.length > 0) err.write(`fixed since the baseline: ${fixes.map((r) => r.id).join(', ')}\n`);
    if (added.length > 0) err.write(`new rules since the baseline: ${added.length}\n`);
    return regressions.some((r) => counts(r.level)) ? 1 : 0;
  }
  return report.results.some((r) => r.status === 'failed' && counts(r.level)) ? 1 : 0;
}
