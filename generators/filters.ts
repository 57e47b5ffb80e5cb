/**
 * fast-check arbitraries for the `filter[...]` language of §4.2: valid filters per list drawn from the values a
 * target actually holds (so filters hit records and miss others), their encodings, and invalid filters, each of which
 * names what it breaks (`breaks`), so a shrunk counterexample reads as a diagnosis.
 */
import fc from 'fast-check';
import qs from 'qs';
import type { RecordView } from '../src/protocol/answers.js';
import {
  describeFilter, encodeFilter, ENCODINGS, LIST_MULTIPLE, LIST_RANGE, RANGE_CF_TYPES, type CfType, type Clause, type Encoding, type ListName, type Scalar,
} from '../src/protocol/filters.js';

export interface CfField { readonly id: number; readonly type: CfType; readonly values: readonly Scalar[] }

/** The values a list shows, per parameter: where generated filters take their values from. */
export interface ValueSource {
  readonly list: ListName;
  readonly records: readonly RecordView[];
  values(field: string): readonly Scalar[];
  readonly cfFields: readonly CfField[];
  readonly statusPairs: readonly { readonly pipeline_id: number; readonly status_id: number }[];
}

export function valueSource(list: ListName, records: readonly RecordView[]): ValueSource {
  const cache = new Map<string, Scalar[]>();
  const values = (field: string): Scalar[] => {
    let v = cache.get(field);
    if (!v) {
      const set = new Set<Scalar>();
      for (const r of records) {
        const x = r[field];
        if (typeof x === 'number' || (typeof x === 'string' && x !== '')) set.add(x);
      }
      v = [...set].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))));
      cache.set(field, v);
    }
    return v;
  };
  const cf = new Map<number, { type: CfType; values: Set<Scalar> }>();
  const pairs = new Map<string, { pipeline_id: number; status_id: number }>();
  for (const r of records) {
    for (const f of r.custom_fields_values ?? []) {
      if (typeof f.field_id !== 'number' || typeof f.field_type !== 'string') continue;
      const entry = cf.get(f.field_id) ?? { type: f.field_type as CfType, values: new Set<Scalar>() };
      cf.set(f.field_id, entry);
      for (const it of f.values ?? []) {
        if (typeof it.enum_id === 'number') entry.values.add(it.enum_id);
        else if (typeof it.value === 'boolean') entry.values.add(it.value ? '1' : '0');
        else if (typeof it.value === 'number' || typeof it.value === 'string') entry.values.add(it.value);
      }
    }
    if (typeof r.pipeline_id === 'number' && typeof r.status_id === 'number') pairs.set(`${r.pipeline_id}:${r.status_id}`, { pipeline_id: r.pipeline_id, status_id: r.status_id });
  }
  const cfFields = [...cf.entries()].sort((a, b) => a[0] - b[0]).map(([id, e]) => ({ id, type: e.type, values: [...e.values].sort() }));
  return { list, records, values, cfFields, statusPairs: [...pairs.values()].sort((a, b) => a.pipeline_id - b.pipeline_id || a.status_id - b.status_id) };
}

/** Values that are not in the data, so a filter can also name something that matches nothing. */
const ABSENT: Record<string, Scalar> = { name: 'no record is named so', id: 1 };

/** A Single (one value) or Multiple (1..max values) clause of a plain parameter. */
export function valuesClause(src: ValueSource, field: string, options: { min?: number; max?: number } = {}): fc.Arbitrary<Clause> {
  const observed = src.values(field);
  const pool = observed.length > 0 ? observed : [ABSENT[field] ?? 1];
  return fc.subarray([...pool], { minLength: Math.min(options.min ?? 1, pool.length), maxLength: Math.min(options.max ?? 3, pool.length) })
    .map((values) => ({ kind: 'values' as const, field, values }));
}

/**
 * A range whose bounds are observed values, narrow enough to select a few records with records outside on both sides:
 * `from` and `to` a few percent apart; an open range starts in the top tenth (`from` only) or ends in the bottom tenth
 * (`to` only).
 */
function boundsOf(values: readonly number[]): fc.Arbitrary<{ from?: number; to?: number }> {
  if (values.length === 0) return fc.constant({ from: 0, to: 1 });
  const n = values.length;
  const at = (i: number) => values[Math.max(0, Math.min(n - 1, i))]!;
  return fc.record({
    i: fc.nat({ max: Math.max(0, n - 1) }),
    span: fc.integer({ min: 1, max: Math.max(1, Math.floor(n / 25)) }),
    shape: fc.constantFrom('both', 'both', 'both', 'from', 'to'),
  }).map(({ i, span, shape }) => {
    if (shape === 'from') return { from: at(Math.floor(0.9 * n) + (i % Math.max(1, Math.ceil(n / 10)))) };
    if (shape === 'to') return { to: at(i % Math.max(1, Math.ceil(n / 10))) };
    const lo = Math.min(i, n - 1 - span);
    return { from: at(lo), to: at(lo + span) };
  });
}

export function rangeClause(src: ValueSource, field: string): fc.Arbitrary<Clause> {
  const values = src.values(field).filter((v): v is number => typeof v === 'number');
  return boundsOf(values).map((b) => ({ kind: 'range' as const, field, ...b }));
}

export function statusesClause(src: ValueSource): fc.Arbitrary<Clause> {
  const pairs = src.statusPairs.length > 0 ? src.statusPairs : [{ pipeline_id: 1, status_id: 1 }];
  return fc.subarray([...pairs], { minLength: 1, maxLength: Math.min(2, pairs.length) }).map((p) => ({ kind: 'statuses' as const, pairs: p }));
}

/** A custom-field clause as §4.2's value table allows for the field's type. */
export function cfClause(field: CfField, options: { range?: boolean; min?: number } = {}): fc.Arbitrary<Clause> {
  const { id: fieldId, type: fieldType } = field;
  if (options.range ?? false) {
    if (!RANGE_CF_TYPES.includes(fieldType)) throw new Error(`a ${fieldType} field takes no range`);
    const nums = field.values.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
    return boundsOf(nums).map((b) => ({ kind: 'cf-range' as const, fieldId, fieldType, ...b }));
  }
  if (fieldType === 'checkbox') return fc.constantFrom('1', '0').map((v) => ({ kind: 'cf-values' as const, fieldId, fieldType, values: [v] }));
  // Dates: one value (several are "not stated"); the others: one to three alternatives.
  const max = fieldType === 'date' || fieldType === 'date_time' ? 1 : 3;
  const pool = field.values.length > 0 ? [...field.values] : ['0'];
  const maxLength = Math.min(max, pool.length);
  return fc.subarray(pool, { minLength: Math.min(options.min ?? 1, maxLength), maxLength }).map((values) => ({ kind: 'cf-values' as const, fieldId, fieldType, values }));
}

export interface SweepCase { readonly label: string; readonly clauses: readonly Clause[]; readonly encoding?: Encoding }

/** `[]` arrays, the documented form of custom-field values. */
export const BRACKETS: Encoding = { brackets: 'raw', arrays: 'brackets', single: 'array' };

/**
 * One case per parameter of a list in each of its shapes: the deterministic part of the meaning rules, so that every
 * parameter is checked on every run whatever the property draws. Values come from `sample` (seeded).
 */
export function sweep(src: ValueSource, seed: number, groups: readonly ('common' | 'per-list' | 'custom-fields')[]): SweepCase[] {
  const one = <T>(arb: fc.Arbitrary<T>, k: number): T => fc.sample(arb, { seed: seed + k, numRuns: 1 })[0]!;
  const out: SweepCase[] = [];
  const list = src.list;
  const perList = (f: string) => !['id', 'name', 'created_by', 'updated_by', 'responsible_user_id', 'created_at', 'updated_at', 'closest_task_at'].includes(f);
  let k = 0;
  for (const field of LIST_MULTIPLE[list]) {
    if (!groups.includes(perList(field) ? 'per-list' : 'common')) continue;
    out.push({ label: `${field} single`, clauses: [one(valuesClause(src, field, { min: 1, max: 1 }), k++)] });
    out.push({ label: `${field} multiple`, clauses: [one(valuesClause(src, field, { min: 2, max: 3 }), k++)] });
  }
  for (const field of LIST_RANGE[list]) {
    if (!groups.includes(perList(field) ? 'per-list' : 'common')) continue;
    out.push({ label: `${field} range`, clauses: [one(rangeClause(src, field).filter((c) => c.kind === 'range' && c.from !== undefined && c.to !== undefined), k++)] });
  }
  if (groups.includes('per-list')) {
    if (list === 'leads') {
      out.push({ label: 'statuses', clauses: [one(statusesClause(src), k++)] });
      out.push(...statusesEdges(src, seed));
    }
    if (list === 'customers') out.push({ label: 'next_price single', clauses: [one(valuesClause(src, 'next_price', { min: 1, max: 1 }), k++)] });
  }
  if (groups.includes('custom-fields')) {
    for (const field of src.cfFields) {
      // Several values where the type takes them, as repeated [] keys: the documented custom-field form.
      if (field.type === 'checkbox') {
        // Both values every run, whatever the seed draws: `0` (unchecked or never set) is the one servers get wrong.
        for (const v of ['1', '0']) out.push({ label: `custom field checkbox ${v}`, clauses: [{ kind: 'cf-values', fieldId: field.id, fieldType: field.type, values: [v] }], encoding: BRACKETS });
        continue;
      }
      out.push({ label: `custom field ${field.type}`, clauses: [one(cfClause(field, { min: 2 }), k++)], encoding: BRACKETS });
      if (RANGE_CF_TYPES.includes(field.type)) out.push({ label: `custom field ${field.type} range`, clauses: [one(cfClause(field, { range: true }).filter((c) => c.kind === 'cf-range' && c.from !== undefined && c.to !== undefined), k++)] });
    }
  }
  return out;
}

/**
 * The statuses elements servers get wrong, every run: two elements of two pipelines (each one counts, not only the
 * first or the last), and a status id that several pipelines share (the closing ones), which only its pipeline_id
 * tells apart.
 */
function statusesEdges(src: ValueSource, seed: number): SweepCase[] {
  const pairs = src.statusPairs;
  const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.abs(seed) % Math.max(1, xs.length)];
  const out: SweepCase[] = [];
  const first = pick(pairs);
  const other = first && pick(pairs.filter((p) => p.pipeline_id !== first.pipeline_id));
  if (first && other) out.push({ label: 'statuses of two pipelines', clauses: [{ kind: 'statuses', pairs: [first, other] }] });
  const shared = pick(pairs.filter((p) => pairs.some((q) => q.status_id === p.status_id && q.pipeline_id !== p.pipeline_id)));
  if (shared) out.push({ label: 'statuses of a status id several pipelines share', clauses: [{ kind: 'statuses', pairs: [shared] }] });
  return out;
}

/** Any one clause of the list (the parameters of `groups`). */
export function anyClause(src: ValueSource, groups: readonly ('common' | 'per-list' | 'custom-fields')[]): fc.Arbitrary<Clause> {
  const common = ['id', 'name', 'created_by', 'updated_by', 'responsible_user_id'];
  const commonRange = ['created_at', 'updated_at', 'closest_task_at'];
  const arbs: fc.Arbitrary<Clause>[] = [];
  if (groups.includes('common')) {
    arbs.push(...common.map((f) => valuesClause(src, f)), ...commonRange.map((f) => rangeClause(src, f)));
  }
  if (groups.includes('per-list')) {
    arbs.push(...LIST_MULTIPLE[src.list].filter((f) => !common.includes(f)).map((f) => valuesClause(src, f)));
    arbs.push(...LIST_RANGE[src.list].filter((f) => !commonRange.includes(f)).map((f) => rangeClause(src, f)));
    if (src.list === 'leads') arbs.push(statusesClause(src));
  }
  if (groups.includes('custom-fields')) {
    for (const field of src.cfFields) {
      arbs.push(cfClause(field));
      if (RANGE_CF_TYPES.includes(field.type)) arbs.push(cfClause(field, { range: true }));
    }
  }
  return fc.oneof(...arbs);
}

/** One to `max` clauses on distinct parameters (combined with AND). */
export function filterOf(src: ValueSource, groups: readonly ('common' | 'per-list' | 'custom-fields')[], max = 3, min = 1): fc.Arbitrary<Clause[]> {
  return fc.uniqueArray(anyClause(src, groups), { minLength: min, maxLength: max, selector: clauseKey });
}

export function clauseKey(c: Clause): string {
  switch (c.kind) {
    case 'values':
    case 'range': return c.field;
    case 'statuses': return 'statuses';
    case 'cf-values':
    case 'cf-range': return `cf:${c.fieldId}`;
  }
}

export const encodingArb: fc.Arbitrary<Encoding> = fc.constantFrom(...ENCODINGS);

// ---------------------------------------------------------------------------------------------------------------
// Invalid filters: each names what it breaks.

export type InvalidFilter =
  | { readonly breaks: 'range-on-multiple-field'; readonly field: string; readonly from: number; readonly to: number }
  | { readonly breaks: 'non-numeric-bound'; readonly field: string; readonly bound: 'from' | 'to'; readonly value: string }
  | { readonly breaks: 'unknown-parameter'; readonly field: string; readonly value: string }
  | { readonly breaks: 'huge-array'; readonly field: string; readonly size: number }
  | { readonly breaks: 'non-integer-id'; readonly value: string }
  | { readonly breaks: 'statuses-not-a-list'; readonly value: string }
  | { readonly breaks: 'statuses-element-not-an-object'; readonly value: string }
  | { readonly breaks: 'unknown-custom-field'; readonly fieldId: string; readonly value: string }
  | { readonly breaks: 'range-on-text-custom-field'; readonly fieldId: number; readonly from: number; readonly to: number }
  | { readonly breaks: 'deep-nesting'; readonly depth: number }
  | { readonly breaks: 'filter-not-an-object'; readonly value: string }
  | { readonly breaks: 'bad-page-or-limit'; readonly param: 'page' | 'limit'; readonly value: string };

export const INVALID_KINDS = [
  'range-on-multiple-field', 'non-numeric-bound', 'unknown-parameter', 'huge-array', 'non-integer-id', 'statuses-not-a-list',
  'statuses-element-not-an-object', 'unknown-custom-field', 'range-on-text-custom-field', 'deep-nesting', 'filter-not-an-object', 'bad-page-or-limit',
] as const satisfies readonly InvalidFilter['breaks'][];

const junk = fc.oneof(
  fc.constantFrom('abc', '', ' ', '1e309', 'NaN', '-', '0x10', '１２', '1;DROP', '%', '[]', '{}', 'null', '9'.repeat(40)),
  fc.string({ maxLength: 12 }),
);

export function invalidFilter(list: ListName, kind: InvalidFilter['breaks'], textFieldId?: number): fc.Arbitrary<InvalidFilter> {
  const multiple = LIST_MULTIPLE[list];
  const ranges = LIST_RANGE[list];
  switch (kind) {
    case 'range-on-multiple-field': return fc.record({ breaks: fc.constant(kind), field: fc.constantFrom(...multiple), from: fc.integer(), to: fc.integer() });
    case 'non-numeric-bound': return fc.record({ breaks: fc.constant(kind), field: fc.constantFrom(...ranges), bound: fc.constantFrom('from' as const, 'to' as const), value: junk.filter((s) => s.trim() !== '' && !/^-?\d+(\.\d+)?$/.test(s.trim())) });
    case 'unknown-parameter': return fc.record({ breaks: fc.constant(kind), field: fc.constantFrom('nope', 'ID', 'statuses_id', 'price_from', '__proto__', 'constructor'), value: junk });
    case 'huge-array': return fc.record({ breaks: fc.constant(kind), field: fc.constantFrom(...multiple), size: fc.integer({ min: 150, max: 900 }) });
    case 'non-integer-id': return fc.record({ breaks: fc.constant(kind), value: junk.filter((s) => !/^\s*-?\d+\s*$/.test(s)) });
    case 'statuses-not-a-list': return fc.record({ breaks: fc.constant(kind), value: junk });
    case 'statuses-element-not-an-object': return fc.record({ breaks: fc.constant(kind), value: junk });
    case 'unknown-custom-field': return fc.record({ breaks: fc.constant(kind), fieldId: fc.constantFrom('1', '999999999', 'abc', '-5', '0'), value: junk });
    case 'range-on-text-custom-field': return fc.record({ breaks: fc.constant(kind), fieldId: fc.constant(textFieldId ?? 1), from: fc.integer(), to: fc.integer() });
    case 'deep-nesting': return fc.record({ breaks: fc.constant(kind), depth: fc.integer({ min: 4, max: 30 }) });
    case 'filter-not-an-object': return fc.record({ breaks: fc.constant(kind), value: junk });
    case 'bad-page-or-limit': return fc.record({ breaks: fc.constant(kind), param: fc.constantFrom('page' as const, 'limit' as const), value: fc.oneof(junk, fc.constantFrom('0', '-1', '1.5', '99999999999')) });
  }
}

/** The query string of an invalid filter (percent-encoded by qs, as amocrm-js sends it). */
export function invalidQuery(inv: InvalidFilter): string {
  const s = (o: unknown) => qs.stringify(o, { arrayFormat: 'indices' });
  switch (inv.breaks) {
    case 'range-on-multiple-field': return s({ filter: { [inv.field]: { from: inv.from, to: inv.to } } });
    case 'non-numeric-bound': return s({ filter: { [inv.field]: { [inv.bound]: inv.value } } });
    case 'unknown-parameter': return s({ filter: { [inv.field]: inv.value } });
    case 'huge-array': return s({ filter: { [inv.field]: Array.from({ length: inv.size }, (_, i) => i + 1) } });
    case 'non-integer-id': return s({ filter: { id: [inv.value] } });
    case 'statuses-not-a-list': return s({ filter: { statuses: inv.value } });
    case 'statuses-element-not-an-object': return s({ filter: { statuses: [inv.value] } });
    case 'unknown-custom-field': return `${s({ filter: { custom_fields_values: { [inv.fieldId]: [inv.value] } } })}`;
    case 'range-on-text-custom-field': return s({ filter: { custom_fields_values: { [inv.fieldId]: { from: inv.from, to: inv.to } } } });
    case 'deep-nesting': return `filter${'[a]'.repeat(inv.depth)}=1`;
    case 'filter-not-an-object': return s({ filter: inv.value });
    case 'bad-page-or-limit': return s({ [inv.param]: inv.value, filter: { id: [1] } });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The valid query space of a list: every optional member present or absent, edge values a server must survive (empty
// values, references to nothing), each case named by what it holds.

/** A list query's optional members: §4.2's filter and query, and the live service's paging and sorting (field notes). */
export const QUERY_MEMBERS = ['filter', 'page', 'limit', 'order', 'query'] as const;
export type QueryMember = (typeof QUERY_MEMBERS)[number];

/** One query of a list, named by what it holds. */
export interface ListQuery { readonly list: ListName; readonly label: string; readonly query: string }

/** An id no account is likely to hold: above every id the list shows. */
const unknownId = (src: ValueSource): number => Math.max(0, ...src.values('id').filter((v): v is number => typeof v === 'number')) + 1_000_003;

/** Parameters of one list only (§4.2 "Additional parameters per list"), sent to the others as references to nothing. */
const PER_LIST_PARAMETERS: Record<ListName, readonly string[]> = {
  leads: ['filter[price][from]=0&filter[price][to]=1', 'filter[statuses][0][pipeline_id]=1&filter[statuses][0][status_id]=1', 'filter[pipeline_id]=1', 'filter[closed_at][from]=0&filter[closed_at][to]=1'],
  contacts: [],
  companies: [],
  customers: ['filter[next_price]=1', 'filter[next_date][from]=0&filter[next_date][to]=1', 'filter[status_id]=1'],
};

/** A filter the spec allows, whose values name nothing the list holds (or are empty): each must be answered, never crash. */
export function edgeFilters(src: ValueSource): { readonly what: string; readonly text: string }[] {
  const cf = src.cfFields[0];
  const out = [
    { what: 'empty id array', text: 'filter[id][]=' },
    { what: 'empty name', text: 'filter[name]=' },
    { what: 'empty range bounds', text: 'filter[created_at][from]=&filter[created_at][to]=' },
    { what: 'unknown id', text: `filter[id]=${unknownId(src)}` },
    { what: 'unknown ids', text: `filter[id][0]=${unknownId(src)}&filter[id][1]=${unknownId(src) + 1}` },
    { what: 'unknown user', text: 'filter[responsible_user_id]=1&filter[created_by][]=1' },
    { what: 'unknown custom field', text: 'filter[custom_fields_values][999999999][]=1' },
    ...(cf ? [{ what: `empty value of custom field ${cf.type}`, text: `filter[custom_fields_values][${cf.id}][]=` }] : []),
  ];
  for (const [owner, params] of Object.entries(PER_LIST_PARAMETERS) as [ListName, readonly string[]][]) {
    // On its own list the parameter names a pipeline or status that does not exist; on the others it is not theirs.
    for (const text of params) out.push({ what: `${owner} parameter ${text.slice('filter['.length, text.indexOf(']'))} naming nothing`, text });
  }
  return out;
}

/** The value of each member in the full query, drawn from what the list shows. */
function fullMembers(src: ValueSource, clause: Clause): Record<QueryMember, string> {
  const name = src.values('name').find((v): v is string => typeof v === 'string') ?? 'a name';
  return { filter: encodeFilter([clause]), page: 'page=1', limit: 'limit=250', order: 'order[id]=asc', query: `query=${encodeURIComponent(name)}` };
}

const joined = (list: ListName, label: string, parts: readonly string[]): ListQuery => ({ list, label, query: parts.filter(Boolean).join('&') });

/**
 * Named queries of one list: all members, each member left out in turn, each alone, none; every edge filter alone;
 * paging edges (a page past the end, page without limit) and an empty query.
 */
export function namedListQueries(src: ValueSource, seed: number): ListQuery[] {
  const clause = fc.sample(anyClause(src, ['common']), { seed, numRuns: 1 })[0]!;
  const full = fullMembers(src, clause);
  const l = src.list;
  return [
    joined(l, 'every member', QUERY_MEMBERS.map((m) => full[m])),
    ...QUERY_MEMBERS.map((left) => joined(l, `without ${left}`, QUERY_MEMBERS.filter((m) => m !== left).map((m) => full[m]))),
    ...QUERY_MEMBERS.map((only) => joined(l, `${only} alone`, [full[only]])),
    joined(l, 'no member', []),
    ...edgeFilters(src).map((e) => joined(l, e.what, [e.text])),
    joined(l, 'a page past the end', ['page=100000', 'limit=250']),
    joined(l, 'page without limit', ['page=2']),
    joined(l, 'empty query', ['query=']),
    joined(l, 'empty page and limit', ['page=', 'limit=']),
  ];
}

/** Generated queries: each member present or absent, its value a valid one or an edge one. */
export function listQueryArb(src: ValueSource): fc.Arbitrary<ListQuery> {
  const edges = edgeFilters(src);
  const name = fc.constantFrom(...(src.values('name').length > 0 ? src.values('name') : ['a name']));
  const member = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  return fc.record({
    filter: member(fc.oneof(
      filterOf(src, ['common', 'per-list', 'custom-fields'], 2).chain((c) => encodingArb.map((e) => ({ what: describeFilter(c), text: encodeFilter(c, e) }))),
      fc.constantFrom(...edges),
    )),
    page: member(fc.constantFrom('1', '2', '3', '100000')),
    limit: member(fc.constantFrom('1', '2', '50', '250')),
    order: member(fc.constantFrom('order[id]=asc', 'order[id]=desc', 'order[updated_at]=desc')),
    query: member(fc.oneof(name.map((n) => `query=${encodeURIComponent(String(n))}`), fc.constant('query='))),
  }).map((m) => {
    const parts = [m.filter?.text, m.page && `page=${m.page}`, m.limit && `limit=${m.limit}`, m.order, m.query];
    const label = [m.filter && `filter ${m.filter.what}`, m.page && `page ${m.page}`, m.limit && `limit ${m.limit}`, m.order, m.query].filter(Boolean).join(', ') || 'no member';
    return joined(src.list, label, parts.filter((p): p is string => p !== undefined));
  });
}
