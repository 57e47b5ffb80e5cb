/**
 * Merging the reports of the shards of one run into one: a pure function for the `merge` command.
 */
import { neverRan, summarize, type Report, type RuleResult } from '../model/result.js';
import { MergeError } from '../errors.js';

/** The shards a report is of: its `shard` (one), or the `shards` of a merged report; none when unsharded. */
function shardsOf(report: Report): string[] {
  const o = report.options ?? {};
  if (typeof o.shard === 'string') return [o.shard];
  return Array.isArray(o.shards) ? o.shards.filter((s): s is string => typeof s === 'string') : [];
}

/** What reports must share to be merged, each with the words that name it in the refusal. */
const MUST_SHARE: readonly [string, (r: Report) => unknown][] = [
  ['kit', (r) => `${r.suite.name} ${r.suite.version}`],
  // The embedded emulator listens on a port of its own in every run: the same target whatever its URLs.
  ['target', (r) => (r.target.kind === 'emulator' ? 'the embedded emulator' : `${r.target.base_url} ${r.target.auth_url ?? ''} ${r.target.chat_url}`.trim())],
  ['profile', (r) => r.options?.profile],
  ['cases per property', (r) => r.options?.runs],
  ['--only', (r) => r.options?.only],
  ['--exclude', (r) => r.options?.exclude],
  ['configuration', (r) => r.configuration?.name],
];

/**
 * Joins the results of the shards of one run, one result per rule id: the one of the shard that ran it (else the
 * first), recomputes the summary, keeps the earliest start and latest finish, adds up request counts. Refuses (a
 * MergeError) reports that do not belong to one run: another seed (ERR_MERGE_SEED), another kit, target, profile,
 * case count, selection or configuration (ERR_MERGE_INCOMPATIBLE), a shard given twice, shards of different splits, or
 * a rule run in two of them (ERR_MERGE_OVERLAP). Target and options come from the first report, its `shard` replaced
 * by `shards`, the list of every shard joined (which `certify --from` checks covers the suite).
 */
export function mergeReports(reports: readonly Report[]): Report {
  const first = reports[0];
  if (!first) throw new MergeError('nothing to merge: no report given', 'ERR_MERGE_EMPTY');
  const seeds = [...new Set(reports.map((r) => r.seed))];
  if (seeds.length > 1) {
    throw new MergeError(`cannot merge reports made with different seeds (${seeds.join(', ')}): results would not be comparable`, 'ERR_MERGE_SEED');
  }
  for (const [name, of] of MUST_SHARE) {
    const values = [...new Set(reports.map((r) => JSON.stringify(of(r) ?? null)))];
    if (values.length > 1) throw new MergeError(`cannot merge reports of different ${name} (${values.map((v) => JSON.parse(v) as unknown).map(String).join(' vs ')}): they are not shards of one run`, 'ERR_MERGE_INCOMPATIBLE');
  }
  const shards = reports.flatMap(shardsOf);
  const twice = shards.find((s, i) => shards.indexOf(s) !== i);
  if (twice) throw new MergeError(`cannot merge: shard ${twice} is given twice`, 'ERR_MERGE_OVERLAP');
  const splits = [...new Set(shards.map((s) => s.split('/')[1]))];
  if (splits.length > 1) throw new MergeError(`cannot merge shards of different splits (${shards.join(', ')})`, 'ERR_MERGE_INCOMPATIBLE');
  const ranIn = new Map<string, number>();
  reports.forEach((report, i) => {
    for (const result of report.results) {
      if (neverRan(result)) continue;
      const other = ranIn.get(result.id);
      if (other !== undefined && other !== i) throw new MergeError(`cannot merge: rule ${result.id} ran in report ${other + 1} and in report ${i + 1} (the same shard twice, or runs that overlap)`, 'ERR_MERGE_OVERLAP');
      ranIn.set(result.id, i);
    }
  });

  const byId = new Map<string, RuleResult>();
  for (const report of reports) {
    for (const result of report.results) {
      const kept = byId.get(result.id);
      if (!kept || (neverRan(kept) && !neverRan(result))) byId.set(result.id, result);
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
    options = { ...rest, ...(shards.length > 0 ? { shards: [...shards].sort((x, y) => Number(x.split('/')[0]) - Number(y.split('/')[0])) } : {}) };
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
    ...(first.configuration ? { configuration: first.configuration } : {}),
    // A run one of whose shards was interrupted is not whole either.
    ...(reports.some((r) => r.incomplete) ? { incomplete: true } : {}),
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
