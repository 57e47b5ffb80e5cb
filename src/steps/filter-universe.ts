/**
 * Shared by the §4.2 spec files (not a spec file itself, not registered): the universe a rule filters (what the
 * target shows without a filter, or the control API's ground truth) and the judging of one filtered fetch.
 */
import fc from 'fast-check';
import { combinedOtherwise, type Combination, noneMissing, returnedSatisfy, subsetOf, satisfies } from '../checks/filter-meaning.js';
import type { RecordView } from '../protocol/answers.js';
import type { Finding } from '../model/outcome.js';
import { fail, pass } from '../model/outcome.js';
import { describeFilter, LISTS, type Clause, type ListName } from '../protocol/filters.js';
import type { RuleContext } from '../model/context.js';
import { fetchFiltered, groundTruth, visibleRecords, type ListFetch } from './lists.js';
import { valueSource, type SweepCase, type ValueSource } from '../../generators/filters.js';

export interface Universe {
  readonly list: ListName;
  readonly records: readonly RecordView[];
  readonly ids: ReadonlySet<number>;
  readonly byId: ReadonlyMap<number, RecordView>;
  readonly src: ValueSource;
  /** The unfiltered list was longer than the fetch limit: completeness is judged on what was seen only. */
  readonly truncated: boolean;
  readonly kind: 'visible' | 'ground truth';
}

function universeOf(list: ListName, records: readonly RecordView[], kind: Universe['kind'], truncated: boolean): Universe {
  return { list, records, ids: new Set(records.map((r) => r.id)), byId: new Map(records.map((r) => [r.id, r])), src: valueSource(list, records), truncated, kind };
}

/**
 * Universes are read once per run and target and shared by the rules of the run: they are read-only snapshots (no
 * rule of the suite changes list data; a reseed happens only between runs), and reading 4 lists of a few hundred
 * records for each of a dozen rules would cost more than all their filtered requests. The first rule to need one
 * records the exchanges.
 */
let cacheKey = '';
const cache = new Map<string, Promise<Universe>>();

function cached(t: RuleContext, key: string, load: () => Promise<Universe>): Promise<Universe> {
  const run = `${t.runId}|${t.target.baseUrl}`;
  if (run !== cacheKey) { cache.clear(); cacheKey = run; }
  let u = cache.get(key);
  if (!u) {
    u = load();
    cache.set(key, u);
    u.catch(() => cache.delete(key));
  }
  return u;
}

/** What the target shows without a filter, every list (read-only rules). */
export async function visibleUniverses(t: RuleContext, bearer: string, lists: readonly ListName[] = LISTS): Promise<Map<ListName, Universe>> {
  const out = new Map<ListName, Universe>();
  for (const list of lists) {
    out.set(list, await cached(t, `visible|${list}`, async () => {
      const all: ListFetch = await visibleRecords(t, bearer, list);
      return universeOf(list, all.records, 'visible', all.truncated);
    }));
  }
  return out;
}

/** The control API's records (oracle rules). */
export async function truthUniverses(t: RuleContext, lists: readonly ListName[] = LISTS): Promise<Map<ListName, Universe>> {
  const out = new Map<ListName, Universe>();
  for (const list of lists) out.set(list, await cached(t, `truth|${list}`, async () => universeOf(list, await groundTruth(t, list), 'ground truth', false)));
  return out;
}

/**
 * One filtered fetch judged against a universe: a 2xx on every page; every returned record satisfies the filter (on
 * the universe's copy of it when there is one, else on what the answer shows); every universe record that satisfies
 * it was returned; nothing outside the universe came back.
 */
export async function judgeFilter(t: RuleContext, bearer: string, u: Universe, c: SweepCase): Promise<Finding[]> {
  const f = await fetchFiltered(t, bearer, u.list, c.clauses, c.encoding);
  if (!f.ok) return [f.finding];
  const name = `${u.list}: ${c.label}`;
  const returned = f.records.map((r) => u.byId.get(r.id) ?? r);
  const meaning = (combine: Combination) => [
    returnedSatisfy(`${name} returns only matching records`, returned, c.clauses, combine),
    noneMissing(`${name} returns every matching record`, f.ids, u.records, c.clauses, `the ${u.kind} ${u.list}`, combine),
  ];
  let judged = meaning('all');
  // Several parameters that hold as alternatives (OR) rather than all together: recorded (K20), not failed.
  if (c.clauses.length > 1 && judged.some((x) => x.verdict === 'failed') && meaning('any').every((x) => x.verdict === 'passed')) judged = [combinedOtherwise(name, c.clauses)];
  const findings = [judged[0]!];
  if (!u.truncated) findings.push(subsetOf(`${name} ⊆ unfiltered`, f.ids, u.ids, `${u.list} filtered by ${describeFilter(c.clauses)}`, `the ${u.kind} ${u.list}`));
  findings.push(...judged.slice(1));
  if (f.duplicates.length > 0) findings.push(fail(`${name} no duplicates`, `expected each record once across pages, observed ${f.duplicates.length} repeated (ids ${f.duplicates.slice(0, 5).join(', ')})`));
  return findings;
}

/** Pick a universe's list for a generated case. */
export function listArb(universes: ReadonlyMap<ListName, Universe>, lists: readonly ListName[] = LISTS): fc.Arbitrary<Universe> {
  return fc.constantFrom(...lists.filter((l) => universes.has(l)).map((l) => universes.get(l)!));
}

/** How many universe records a filter owes (strict reading), for choosing filters that select something. */
export function owed(u: Universe, clauses: readonly Clause[]): number {
  return u.records.filter((r) => satisfies(r, clauses, 'strict') === true).length;
}

export const noted = (name: string, detail: string): Finding => pass(name, detail);
