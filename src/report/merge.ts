/**
 * Merging the reports of the shards of one run into one: a pure function for the `merge` command.
 */
import { neverRan, summarize, type Report, type RuleResult, type TargetAccount } from '../model/result.js';
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
  ['target', (r) => (r.target.kind === 'emulator' ? 'the embedded emulator' : `${r.target.base_url} ${r.target.auth_url ?? ''} ${r.target.chat_url} ${r.target.base_url_2 ?? ''}`.trim())],
  ['profile', (r) => r.options?.profile],
  ['cases per property', (r) => r.options?.runs],
  ['--only', (r) => r.options?.only],
  ['--exclude', (r) => r.options?.exclude],
  ['configuration', (r) => r.configuration?.name],
];

/** `id (subdomain)` of an account read, undefined for one that could not be read. */
const accountOf = (a: TargetAccount) => (a.error === undefined ? `${String(a.id)} (${a.subdomain ?? ''})` : undefined);

/**
 * The accounts the shards' target said it is, one per bearer (the first shard that could read it): a remote target
 * that said it is another account in another shard is not one target (ERR_MERGE_INCOMPATIBLE). The embedded emulator
 * is a new one in every shard, its accounts of its own: the first shard's are kept.
 */
function mergedAccounts(reports: readonly Report[]): readonly TargetAccount[] | undefined {
  if (reports.every((r) => r.target.accounts === undefined)) return undefined;
  if (reports[0]!.target.kind === 'emulator') return reports[0]!.target.accounts;
  const byBearer = new Map<string, TargetAccount>();
  for (const account of reports.flatMap((r) => r.target.accounts ?? [])) {
    const kept = byBearer.get(account.credential);
    const [was, is] = [kept && accountOf(kept), accountOf(account)];
    if (was !== undefined && is !== undefined && was !== is) {
      throw new MergeError(`cannot merge reports whose target says it is another account (${was} vs ${is} with the ${account.credential} token): they are not shards of one run`, 'ERR_MERGE_INCOMPATIBLE');
    }
    if (!kept || (was === undefined && is !== undefined)) byBearer.set(account.credential, account);
  }
  return [...byBearer.values()];
}

/** The interruptions of the shards as one: the first signal, every rule any shard did not run or abandoned. */
function mergedInterruption(reports: readonly Report[]): Report['interruption'] | undefined {
  const all = reports.flatMap((r) => (r.interruption ? [r.interruption] : []));
  if (all.length === 0) return undefined;
  return { signal: all[0]!.signal, at: all[0]!.at, not_run: [...new Set(all.flatMap((i) => i.not_run))], abandoned: [...new Set(all.flatMap((i) => i.abandoned))] };
}

/**
 * Joins the results of the shards of one run, one result per rule id: the one of the shard that ran it (else the
 * first), recomputes the summary, keeps the earliest start and latest finish, adds up request counts. Refuses (a
 * MergeError) reports that do not belong to one run: another seed (ERR_MERGE_SEED), another kit, target, profile,
 * case count, selection or configuration (ERR_MERGE_INCOMPATIBLE), a shard given twice, shards of different splits, or
 * a rule run in two of them (ERR_MERGE_OVERLAP). Target and options come from the first report, its `shard` replaced
 * by `shards`, the list of every shard joined (which `certify --from` checks covers the suite); the target's accounts
 * are the shards' (refused when a remote target said it is another account in another shard).
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

  const accounts = mergedAccounts(reports);
  const interruption = mergedInterruption(reports);
  const merged: Report = {
    suite: first.suite,
    target: { ...first.target, ...(accounts ? { accounts } : {}) },
    seed: first.seed,
    started_at: started,
    finished_at: finished,
    summary: summarize(results),
    results,
    ...(options ? { options } : {}),
    ...(requests !== undefined ? { request_count: requests } : {}),
    ...(first.configuration ? { configuration: first.configuration } : {}),
    ...(first.credentials ? { credentials: first.credentials } : {}),
    // The same in every shard (--only and --exclude must match): what the statement table counts as not selected.
    ...(first.not_selected ? { not_selected: first.not_selected } : {}),
    // A run one of whose shards was interrupted is not whole either.
    ...(reports.some((r) => r.incomplete) ? { incomplete: true } : {}),
    ...(interruption ? { interruption } : {}),
  };
  // No statement table: each shard's judges its own results only; the caller recomputes it (withRunStatements).
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
