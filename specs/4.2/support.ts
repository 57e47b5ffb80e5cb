/**
 * What the rules of §4.2 share: fixtures, case tables and the makers of rule families.
 */
import fc from 'fast-check';
import {
  BRACKETS, cfClause, type Clause, describeEncoding, describeFilter, type Encoding, encodeFilter, encodingArb, ENUM_CF_TYPES, filterBearer, filterOf, type Finding, type HttpResponse, type IncompleteElement, INVALID_KINDS, type InvalidFilter, invalidFilter, judgeFilter, LIST_MULTIPLE, LIST_RANGE, listArb, type ListFetch, type ListName, LISTS, QUERY_LISTS, RANGE_CF_TYPES, readsLists, type RecordView, type RuleContext, type RuleDraft, type RuleMeta, type Scalar, SINGLE_VALUED_INT_FIELDS, sweep, type SweepCase, sweepRule, TEXT_CF_TYPES, truthUniverses, type Universe, valuesClause, visibleUniverses,
} from '../kit.js';

export const RAW_SCALAR: Encoding = { brackets: 'raw', arrays: 'indexed', single: 'scalar' };

export const RAW_INDEXED: Encoding = { brackets: 'raw', arrays: 'indexed', single: 'array' };

export const PERCENT_BRACKETS: Encoding = { brackets: 'percent', arrays: 'brackets', single: 'array' };

export type Group = 'common' | 'per-list' | 'custom-fields';

export const ORACLE_READING = 'Ground truth from the control API (GET /_control/lists/<list>). A returned record must satisfy the filter on its ground-truth fields under the lenient reading (ranges inclusive, names and text values as a case-insensitive substring, an unset checkbox as 0); a record that satisfies it under the strict reading (exclusive ranges, exact values) must be returned. Several parameters are read together (AND); an answer that holds exactly as alternatives (OR) is recorded, not failed, since §4.2 does not say how parameters combine (K20). A range with one bound refused is recorded (K18). Pages are followed through _links.next.';

export interface Oracle {
  readonly bearer: string;
  readonly us: Map<ListName, Universe>;
}

export function oracleRule(id: string, title: string, group: Group, lists: readonly ListName[], covers: readonly string[]): RuleDraft {
  // Generated filters: two or three parameters of the group, or of the group and the common ones, in any encoding.
  const groups: Group[] = group === 'common' ? ['common'] : ['common', group];
  return sweepRule<{ u: Universe; c: SweepCase }, HttpResponse, Oracle>(
    { id, requires: ['control'], needs: ['ground-truth'], title, reading: ORACLE_READING, covers },
    {
      setup: async (t) => ({ bearer: await filterBearer(t), us: await truthUniverses(t, lists) }),
      named: (t, { us }) => lists.flatMap((list, k) => sweep(us.get(list)!.src, t.seed + k, [group]).map((c) => ({ u: us.get(list)!, c }))),
      cases: (_t, { us }) => listArb(us, lists).chain((u: Universe) => fc.record({ clauses: filterOf(u.src, groups, 3, 2), encoding: encodingArb })
        .map(({ clauses, encoding }) => ({ u, c: { label: 'generated filter', clauses, encoding } }))),
      judge: (t, { u, c }, { bearer }) => judgeFilter(t, bearer, u, c),
      what: `every ${group} parameter`,
    },
  );
}

export const ALL = ['common', 'per-list', 'custom-fields'] as const;

export const name = (c: readonly Clause[]) => describeFilter(c);

/** The first fetch that went wrong: a failure before a recorded refusal (an open range, K18). */
export function failedFetch(...fetches: ListFetch[]): Finding | undefined {
  const bad = fetches.filter((f) => !f.ok).map((f) => f.finding);
  return bad.find((f) => f.verdict === 'failed') ?? bad[0];
}

/** What the read-only rules filter: the lists as the target shows them without a filter. */
export interface Lists {
  readonly bearer: string;
  readonly us: Map<ListName, Universe>;
}

/** A relation rule's plan: its named cases, generated ones, and how one case is judged (relation checks over fetches). */
export interface Plan<T> {
  readonly named: readonly T[];
  readonly cases: fc.Arbitrary<T>;
  readonly judge: (c: T) => Promise<readonly Finding[]>;
}

/**
 * A read-only relation rule: sweep its named cases, then generated ones (sweepThenProperty), over the visible lists; a
 * list refused without a filter fails it (K22).
 */
export function metaRule<T>(meta: RuleMeta, what: string, plan: (t: RuleContext, lists: Lists) => Plan<T>): RuleDraft {
  return readsLists(sweepRule<T, HttpResponse, Plan<T>>(meta, {
    setup: async (t) => {
      const bearer = await filterBearer(t);
      return plan(t, { bearer, us: await visibleUniverses(t, bearer) });
    },
    named: (_t, p) => p.named,
    cases: (_t, p) => p.cases,
    judge: (_t, c, p) => p.judge(c),
    what,
  }));
}

// --- union: multiple values = union of the single values -----------------------------------------------------------
export interface UnionCase { readonly u: Universe; readonly make: (values: readonly Scalar[]) => Clause; readonly values: readonly [Scalar, Scalar]; readonly singleValued: boolean; readonly label: string }

export function unionCases(u: Universe, seed: number): UnionCase[] {
  const out: UnionCase[] = [];
  const pick = (pool: readonly Scalar[], k: number): [Scalar, Scalar] | undefined => {
    if (pool.length < 2) return undefined;
    const i = Math.abs(seed + k) % pool.length;
    const j = (i + 1 + (Math.abs(seed >> 3) % (pool.length - 1))) % pool.length;
    return [pool[i]!, pool[j]!];
  };
  LIST_MULTIPLE[u.list].forEach((field, k) => {
    const values = pick(u.src.values(field), k);
    if (values) out.push({ u, values, label: field, singleValued: SINGLE_VALUED_INT_FIELDS.includes(field), make: (v) => ({ kind: 'values', field, values: v }) });
  });
  u.src.cfFields.filter((f) => [...ENUM_CF_TYPES, ...TEXT_CF_TYPES, 'numeric'].includes(f.type)).forEach((f, k) => {
    const values = pick(f.values, k + 11);
    if (values) out.push({ u, values, label: `custom field ${f.type}`, singleValued: f.type !== 'multiselect', make: (v) => ({ kind: 'cf-values', fieldId: f.id, fieldType: f.type, values: v }) });
  });
  return out;
}

// --- ranges: a narrower range ⊆ a wider one; adjacent ranges are disjoint -------------------------------------------
export interface RangeField { readonly u: Universe; readonly label: string; readonly values: readonly number[]; readonly make: (from?: number, to?: number) => Clause }

export function rangeFields(u: Universe): RangeField[] {
  const nums = (v: readonly Scalar[]) => v.filter((x): x is number => typeof x === 'number').sort((a, b) => a - b);
  const out: RangeField[] = LIST_RANGE[u.list].map((field) => ({
    u, label: field, values: nums(u.src.values(field)),
    make: (from?: number, to?: number): Clause => ({ kind: 'range', field, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) }),
  }));
  for (const f of u.src.cfFields.filter((x) => RANGE_CF_TYPES.includes(x.type))) {
    out.push({
      u, label: `custom field ${f.type}`, values: nums(f.values),
      make: (from?: number, to?: number): Clause => ({ kind: 'cf-range', fieldId: f.id, fieldType: f.type, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) }),
    });
  }
  return out.filter((r) => r.values.length >= 4);
}

/** A range field swept at fixed quantiles, or with the four bounds of a generated case. */
export interface RangeCase { readonly r: RangeField; readonly bounds?: readonly [number, number, number, number] }

export const q = (values: readonly number[], p: number): number => values[Math.min(values.length - 1, Math.floor(p * values.length))]!;

/** Pattern characters of SQL LIKE (%, _), globs (*, ?), regular expressions (.*) and quoting (', \). */
export const PATTERNS: readonly string[] = ['%', '_', '*', '%_%', '.*', '?', "'", '"', '\\'];

export interface PatternCase {
  readonly list: ListName;
  readonly value: string;
  readonly param: 'filter[name]' | 'query';
}

export const PATTERN_CASES: readonly PatternCase[] = [
  ...LISTS.flatMap((list) => PATTERNS.map((value): PatternCase => ({ list, value, param: 'filter[name]' }))),
  ...QUERY_LISTS.flatMap((list) => PATTERNS.map((value): PatternCase => ({ list, value, param: 'query' }))),
];

/** created_at from now to the epoch: reversed, and swapped it would be every record. */
export const REVERSED = (now: number) => `filter[created_at][from]=${now}&filter[created_at][to]=0`;

/** About 100 KB of filter[id][]: far beyond any page (250 records) and the 8–16 KiB request line most servers take. */
export const LONG_QUERY_BYTES = 100 * 1024;

export function longIdQuery(): string {
  const parts: string[] = [];
  let length = 0;
  for (let id = 1; length < LONG_QUERY_BYTES; id += 1) {
    const part = `filter%5Bid%5D%5B%5D=${id}`;
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join('&');
}

export interface IsolationFixture {
  readonly token: string;
  readonly foreign: ReadonlyMap<ListName, readonly number[]>;
}

export const idFilter = (ids: readonly number[]): string => ids.map((id) => `filter%5Bid%5D%5B%5D=${id}`).join('&');

export interface Utf8Fixture {
  readonly token: string;
  readonly id: number;
  readonly name: string;
}

export type Parameter = 'filter[name]' | 'query';

// --- shapes: every parameter of every list in each of its shapes ---------------------------------------------------
/** One shape §4.2 allows, sent on one page of a list; `label` names the list, the parameter, its shape and spelling. */
export interface ShapeCase {
  readonly list: ListName;
  readonly label: string;
  readonly clause: Clause;
  readonly encoding: Encoding;
}

/**
 * Single values as filter[f]=v, multiple ones as [0] arrays and as percent-encoded [] arrays, ranges with both bounds
 * and with one, statuses, next_price single, custom fields with [] values (and ranges where the type has them). Values
 * are drawn from the records each list shows, each draw with its own seed.
 */
export function shapeCases(us: ReadonlyMap<ListName, Universe>, seed: number): ShapeCase[] {
  const out: ShapeCase[] = [];
  let k = 0;
  const one = <T>(arb: fc.Arbitrary<T>): T => fc.sample(arb, { seed: seed + k++, numRuns: 1 })[0]!;
  const add = (list: ListName, label: string, clause: Clause, encoding: Encoding) => out.push({ list, label: `${list} ${label} (${describeEncoding(encoding)})`, clause, encoding });
  for (const list of LISTS) {
    const src = us.get(list)!.src;
    for (const field of LIST_MULTIPLE[list]) {
      add(list, `${field} single`, one(valuesClause(src, field, { min: 1, max: 1 })), RAW_SCALAR);
      add(list, `${field} multiple`, one(valuesClause(src, field, { min: 2, max: 3 })), RAW_INDEXED);
      add(list, `${field} multiple`, one(valuesClause(src, field, { min: 2, max: 3 })), PERCENT_BRACKETS);
    }
    for (const field of LIST_RANGE[list]) {
      const values = src.values(field).filter((v): v is number => typeof v === 'number');
      const [lo, hi] = [values[Math.floor(values.length / 4)] ?? 0, values[Math.floor((3 * values.length) / 4)] ?? 1];
      add(list, `${field} range`, { kind: 'range', field, from: lo, to: hi }, RAW_INDEXED);
      add(list, `${field} range from`, { kind: 'range', field, from: lo }, PERCENT_BRACKETS);
      add(list, `${field} range to`, { kind: 'range', field, to: hi }, RAW_INDEXED);
    }
    if (list === 'leads') {
      const pairs = src.statusPairs.slice(0, 2);
      add(list, 'statuses', { kind: 'statuses', pairs: pairs.length > 0 ? pairs : [{ pipeline_id: 1, status_id: 1 }] }, RAW_INDEXED);
    }
    if (list === 'customers') add(list, 'next_price single', one(valuesClause(src, 'next_price', { min: 1, max: 1 })), RAW_SCALAR);
    for (const field of src.cfFields) {
      add(list, `custom field ${field.type}`, one(cfClause(field)), BRACKETS);
      if (RANGE_CF_TYPES.includes(field.type)) add(list, `custom field ${field.type} range`, one(cfClause(field, { range: true })), RAW_INDEXED);
    }
  }
  return out;
}

/** The custom-field types the lists show (none: the custom-field shapes were not tried). */
export const cfTypesShown = (us: ReadonlyMap<ListName, Universe>): ReadonlySet<string> => new Set(LISTS.flatMap((l) => us.get(l)!.src.cfFields.map((f) => f.type)));

// --- statuses: an element missing one of its two keys --------------------------------------------------------------
export type StatusPair = Universe['src']['statusPairs'][number];

/** A pair whose pipeline also holds leads of another status, so that the half-applied element is told from the pair. */
export const incompletePair = (u: Universe): StatusPair | undefined =>
  u.src.statusPairs.find((p) => u.records.some((r) => r.pipeline_id === p.pipeline_id && r.status_id !== p.status_id)) ?? u.src.statusPairs[0];

export interface IncompleteCase extends IncompleteElement {
  readonly query: string;
}

/** The element without status_id, then without pipeline_id; half-applied, each selects the leads its one key names. */
export function incompleteCases(u: Universe, pair: StatusPair | undefined): IncompleteCase[] {
  if (!pair) return [];
  const ids = (keep: (r: RecordView) => boolean) => new Set(u.records.filter(keep).map((r) => r.id));
  return [
    { missing: 'status_id', query: encodeFilter([{ kind: 'statuses', pairs: [{ pipeline_id: pair.pipeline_id }] }]), present: `pipeline_id is ${pair.pipeline_id}`, halfApplied: ids((r) => r.pipeline_id === pair.pipeline_id), whole: u.ids },
    { missing: 'pipeline_id', query: encodeFilter([{ kind: 'statuses', pairs: [{ status_id: pair.status_id }] }]), present: `status_id is ${pair.status_id}`, halfApplied: ids((r) => r.status_id === pair.status_id), whole: u.ids },
  ];
}

export interface StatusesFixture {
  readonly bearer: string;
  readonly u: Universe;
  readonly pair: StatusPair | undefined;
}

// --- robustness: malformed filters ----------------------------------------------------------------------------------
export interface InvalidCase {
  readonly list: ListName;
  readonly inv: InvalidFilter;
}

const textFieldOf = (us: ReadonlyMap<ListName, Universe>, list: ListName) => us.get(list)!.src.cfFields.find((f) => TEXT_CF_TYPES.includes(f.type))?.id;

/** Every kind of breakage on every list, each drawn with the list's seed. */
export const invalidCases = (us: ReadonlyMap<ListName, Universe>, seed: number): InvalidCase[] =>
  [...LISTS.entries()].flatMap(([k, list]) => INVALID_KINDS.map((kind) => ({ list, inv: fc.sample(invalidFilter(list, kind, textFieldOf(us, list)), { seed: seed + k, numRuns: 1 })[0]! })));

export const invalidCaseArb = (us: ReadonlyMap<ListName, Universe>): fc.Arbitrary<InvalidCase> =>
  fc.constantFrom(...LISTS).chain((list) => fc.constantFrom(...INVALID_KINDS).chain((kind) => invalidFilter(list, kind, textFieldOf(us, list))).map((inv) => ({ list, inv })));

// --- query: a record's name finds it --------------------------------------------------------------------------------
export interface QueryCase {
  readonly u: Universe;
  readonly id: number;
  readonly name: string;
}

/** Two named records of each list that takes query, drawn with the list's seed. */
export function queryCases(us: ReadonlyMap<ListName, Universe>, seed: number): QueryCase[] {
  return [...QUERY_LISTS.entries()].flatMap(([k, list]) => {
    const u = us.get(list)!;
    const named = u.records.flatMap((r) => (typeof r.name === 'string' && r.name.trim() !== '' ? [{ u, id: r.id, name: r.name }] : []));
    return fc.sample(fc.constantFrom(...named), { seed: seed + k, numRuns: 2 });
  });
}
