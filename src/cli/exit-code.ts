/**
 * The exit code of a run or a merged report (docs/design.md §3): 0 when no `must` rule failed (with --strict, no
 * `should` either); against a baseline, only regressions count, and the comparison is printed. A `must` rule left
 * unjudged (errored, or skipped because a step it needed was refused) is not a green run (issue 28 §2): exit 4 when
 * nothing failed, unless --allow-unjudged.
 */
import { unjudged, type Report, type RuleResult } from '../model/result.js';
import type { Comparison } from '../report/baseline.js';

/** Nothing failed, yet a counted rule reached no verdict (DESIGN.md leaves 4 free: 1 failures, 2 usage, 3 unreachable). */
export const EXIT_UNJUDGED = 4;

export interface ExitOptions {
  readonly strict: boolean;
  readonly comparison?: Comparison;
  /** --allow-unjudged: errored rules and rules skipped behind a refused step do not change the exit code. */
  readonly allowUnjudged?: boolean;
}

export function exitCode(report: Report, options: ExitOptions, err: NodeJS.WritableStream = process.stderr): number {
  const counts = (level: string) => level === 'must' || (options.strict && level === 'should');
  // Against a baseline, only what the baseline judged and this run did not counts, as only regressions of failures do.
  const left = (options.comparison ? options.comparison.unjudged : report.results.filter(unjudged)).filter((r) => counts(r.level));
  const failing = options.comparison ? failingAgainstBaseline(options.comparison, counts, err) : report.results.filter((r) => r.status === 'failed' && counts(r.level)).map((r) => r.id);
  if (failing.length > 0 && !options.comparison) err.write(`failed: ${failing.length} rule(s): ${failing.join(', ')}\n`);
  if (left.length > 0) {
    const why = (r: RuleResult) => (r.blocked_by ? `skipped behind ${r.blocked_by}` : 'errored');
    err.write(`unjudged: ${left.length} rule(s) reached no verdict: ${left.map((r) => `${r.id} (${why(r)})`).join(', ')}`
      + `${options.allowUnjudged ? ' (--allow-unjudged: not counted)' : ''}\n`);
  }
  if (failing.length > 0) return 1;
  return left.length > 0 && !options.allowUnjudged ? EXIT_UNJUDGED : 0;
}

function failingAgainstBaseline(comparison: Comparison, counts: (level: string) => boolean, err: NodeJS.WritableStream): string[] {
  const { regressions, fixes, added } = comparison;
  for (const r of regressions) err.write(`regression: ${r.id} (${r.level}) now fails: ${r.detail.slice(0, 160)}\n`);
  if (fixes.length > 0) err.write(`fixed since the baseline: ${fixes.map((r) => r.id).join(', ')}\n`);
  if (added.length > 0) err.write(`new rules since the baseline: ${added.length}\n`);
  return regressions.filter((r) => counts(r.level)).map((r) => r.id);
}
