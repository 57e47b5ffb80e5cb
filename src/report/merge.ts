/**
 * Merging reports of several runs (shards, re-runs) into one: a pure function for the `merge` command.
 */
import { summarize, type Report, type RuleResult } from '../model/result.js';
import { MergeError } from '../errors.js';

/**
 * Concatenates the results of `reports`, one result per rule id (the non-skipped one when an id appears more than
 * once, else the first), recomputes the summary, keeps the earliest start and latest finish, adds up request counts.
 * All reports must share the same seed (Error with code ERR_MERGE_SEED otherwise). Suite, target and options come
 * from the first report (without its `shard` option, since the merge is no longer one shard).
 */
export function mergeReports(reports: readonly Report[]): Report {
  const first = reports[0];
  if (!first) throw new MergeError('nothing to merge: no report given', 'ERR_MERGE_EMPTY');
  const seeds = [...new Set(reports.map((r) => r.seed))];
  if (seeds.length > 1) {
    throw new MergeError(`cannot merge reports made with different seeds (${seeds.join(', ')}): results would not be comparable`, 'ERR_MERGE_SEED');
  }

  const byId = new Map<string, RuleResult>();
  for (const report of reports) {
    for (const result of report.results) {
      const kept = byId.get(result.id);
      if (!kept || (kept.status === 'skipped' && result.status !== 'skipped')) byId.set(result.id, result);
    }
  }
  const results = [...byId.values()]; // Map keeps first-insertion order, also when a value is replaced

  let started = first.started_at;
  let finished = first.finished_at;
  let requests: number | undefined;
  for (const report of reports) {
    if (earlier(report.started_at, started)) started = report.started_at;
    if (earlier(finished, report.finished_at)) finished = report.finished_at;
    if (typeof report.request_count === 'number') requests = (requests ?? 0) + report.request_count;
  }

  let options: Record<string, unknown> | undefined;
  if (first.options) {
    const { shard: _shard, ...rest } = first.options;
    options = rest;
  }

  const merged: Report = {
    suite: first.suite,
    target: first.target,
    seed: first.seed,
    started_at: started,
    finished_at: finished,
    summary: summarize(results),
    results,
    ...(options ? { options } : {}),
    ...(requests !== undefined ? { request_count: requests } : {}),
  };
  return merged;
}

/** a < b as instants; unparsable timestamps never win. */
function earlier(a: string, b: string): boolean {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  if (!Number.isFinite(ta)) return false;
  if (!Number.isFinite(tb)) return true;
  return ta < tb;
}
