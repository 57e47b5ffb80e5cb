/**
 * §4.2 List filtering, meaning without an oracle: read-only rules for any target (a staging account with whatever data
 * it holds). The universe is what the target itself shows without a filter; relations between answers do the rest:
 * filtered ⊆ unfiltered and consistent with the records' own fields, multiple values = union of the single values,
 * two filters together ⊆ each alone, a narrower range ⊆ a wider one, encodings and parameter order do not matter,
 * pages join without duplicates or gaps.
 */
import fc from 'fast-check';
import {
  BRACKETS, type Clause, DEFAULT_ENCODING, defineSpec, describeEncoding, describeFilter, disjoint, type Encoding, encodingArb, ENCODINGS, ENUM_CF_TYPES, equivalentSpellings, fetchFiltered, filterBearer, filterOf, type Finding, type HttpResponse, judgeFilter, LIST_MULTIPLE, LIST_RANGE, listArb, type ListFetch, type ListName, LISTS, noDuplicates, noted, nothingToPage, RANGE_CF_TYPES, readsLists, type RuleContext, type RuleDraft, type RuleMeta, sameSet, type Scalar, SINGLE_VALUED_INT_FIELDS, subsetOf, sweep, together, type SweepCase, sweepRule, TEXT_CF_TYPES, type Universe, visibleUniverses,
} from './kit.js';

const ALL = ['common', 'per-list', 'custom-fields'] as const;
const name = (c: readonly Clause[]) => describeFilter(c);

/** The first fetch that went wrong: a failure before a recorded refusal (an open range, K18). */
function failedFetch(...fetches: ListFetch[]): Finding | undefined {
  const bad = fetches.filter((f) => !f.ok).map((f) => f.finding);
  return bad.find((f) => f.verdict === 'failed') ?? bad[0];
}

/** What the read-only rules filter: the lists as the target shows them without a filter. */
interface Lists {
  readonly bearer: string;
  readonly us: Map<ListName, Universe>;
}

/** A relation rule's plan: its named cases, generated ones, and how one case is judged (relation checks over fetches). */
interface Plan<T> {
  readonly named: readonly T[];
  readonly cases: fc.Arbitrary<T>;
  readonly judge: (c: T) => Promise<readonly Finding[]>;
}

/**
 * A read-only relation rule: sweep its named cases, then generated ones (sweepThenProperty), over the visible lists; a
 * list refused without a filter fails it (K22).
 */
function metaRule<T>(meta: RuleMeta, what: string, plan: (t: RuleContext, lists: Lists) => Plan<T>): RuleDraft {
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

// --- consistent: filtered ⊆ unfiltered, and agrees with the records' own fields -------------------------------------

const consistent = metaRule<{ u: Universe; c: SweepCase }>(
  {
    id: 'lists.filter.meta.consistent', requires: [], needs: ['access-token'],
    title: 'A filtered list is the part of the unfiltered list whose own fields satisfy the filter',
    reading: 'Read-only. Every returned record is in the unfiltered list and its shown fields satisfy the filter (ranges inclusive, names as a case-insensitive substring: the lenient readings); every unfiltered record that satisfies it strictly (exclusive ranges, exact values) is returned. Records that do not show a field are not judged on it. Several parameters are read together (AND); an answer that holds exactly as alternatives (OR) is recorded, not failed (K20); a range with one bound refused is recorded (K18).',
    covers: ['4.2/filter', '4.2/filter[id]', '4.2/filter[name]', '4.2/filter[created_by]', '4.2/filter[updated_by]', '4.2/filter[responsible_user_id]', '4.2/filter[created_at]', '4.2/filter[updated_at]', '4.2/filter[closest_task_at]', '4.2/filter[custom_fields_values]', '4.2/api/v4/leads filter[price]', '4.2/api/v4/leads filter[statuses]', '4.2/api/v4/leads filter[pipeline_id]', '4.2/api/v4/leads filter[closed_at]', '4.2/api/v4/customers filter[next_price]', '4.2/api/v4/customers filter[next_date]', '4.2/api/v4/customers filter[status_id]', '4.2/Single', '4.2/Multiple', '4.2/Range', '4.2/Statuses (deals)', '4.2/Custom fields'],
  },
  'filtered lists consistent',
  (t, { bearer, us }) => {
    const cases = LISTS.flatMap((l) => sweep(us.get(l)!.src, t.seed, ALL).map((c) => ({ u: us.get(l)!, c })));
    const arb = listArb(us).chain((u) => fc.record({ clauses: filterOf(u.src, ALL, 3, 2), encoding: encodingArb }).map(({ clauses, encoding }) => ({ u, c: { label: 'generated filter', clauses, encoding } as SweepCase })));
    return { named: cases, judge: ({ u, c }) => judgeFilter(t, bearer, u, c), cases: arb };
  },
);

// --- union: multiple values = union of the single values -----------------------------------------------------------

interface UnionCase { readonly u: Universe; readonly make: (values: readonly Scalar[]) => Clause; readonly values: readonly [Scalar, Scalar]; readonly singleValued: boolean; readonly label: string }

function unionCases(u: Universe, seed: number): UnionCase[] {
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

const union = metaRule(
  {
    id: 'lists.filter.meta.union', requires: [], needs: ['access-token'],
    title: 'A Multiple filter returns the union of its single values (and distinct values of a one-valued field share no record)',
    reading: 'Read-only. §4.2: "Multiple = an array of values is allowed" — the values are alternatives. The array is sent as repeated [] keys (the documented custom-field form, and what the npm client sends).',
    covers: ['4.2/Multiple', '4.2/filter[id]', '4.2/filter[name]', '4.2/filter[created_by]', '4.2/filter[updated_by]', '4.2/filter[responsible_user_id]', '4.2/api/v4/leads filter[pipeline_id]', '4.2/api/v4/customers filter[status_id]', '4.2/Custom fields', '4.2/numeric', '4.2/text, url, textarea, streetaddress', '4.2/select, multiselect, radiobutton'],
  },
  'unions held',
  (t, { bearer, us }) => {
    const check = async ({ u, make, values, singleValued, label }: UnionCase): Promise<Finding[]> => {
      const [a, b] = values;
      const fa = await fetchFiltered(t, bearer, u.list, [make([a])]);
      const fb = await fetchFiltered(t, bearer, u.list, [make([b])]);
      const fab = await fetchFiltered(t, bearer, u.list, [make([a, b])], BRACKETS);
      const bad = failedFetch(fa, fb, fab);
      if (bad) return [bad];
      const unionIds = new Set([...fa.ids, ...fb.ids]);
      const findings = [sameSet(`${u.list} ${label}: [${a}, ${b}] = ${a} ∪ ${b}`, fab.ids, unionIds, `${u.list} filtered by ${name([make([a, b])])}`, 'the union of the two single-value answers')];
      if (singleValued && a !== b) findings.push(disjoint(`${u.list} ${label}: ${a} ∩ ${b} = ∅`, fa.ids, fb.ids, `${label}=${a}`, `${label}=${b}`));
      return findings;
    };
    const cases = LISTS.flatMap((l) => unionCases(us.get(l)!, t.seed));
    const arb = fc.constantFrom(...cases).chain((c) => {
      const pool = c.label.startsWith('custom field') ? c.u.src.cfFields.find((f) => c.label === `custom field ${f.type}`)?.values ?? [] : c.u.src.values(c.label);
      return fc.uniqueArray(fc.constantFrom(...pool), { minLength: 2, maxLength: 2 }).map((v) => ({ ...c, values: [v[0]!, v[1]!] as [Scalar, Scalar] }));
    });
    return { named: cases, judge: check, cases: arb };
  },
);

// --- intersection: two filters together ⊆ each alone ---------------------------------------------------------------

const intersection = metaRule(
  {
    id: 'lists.filter.meta.intersection', requires: [], needs: ['access-token'],
    title: 'Two filter parameters together return a subset of each one alone',
    reading: 'Read-only. The parameters of the filter object narrow the list together (AND): two together return a subset of each alone (equality with the intersection is not required). §4.2 does not say how parameters combine, so an answer that is exactly the union of the two (OR) is recorded, not failed (K20); one parameter ignored fails.',
    covers: ['4.2/filter'],
  },
  'intersections held',
  (t, { bearer, us }) => {
    const check = async ({ u, pair }: { u: Universe; pair: readonly Clause[] }): Promise<Finding[]> => {
      const [a, b] = pair as [Clause, Clause];
      const fa = await fetchFiltered(t, bearer, u.list, [a]);
      const fb = await fetchFiltered(t, bearer, u.list, [b]);
      const fab = await fetchFiltered(t, bearer, u.list, [a, b]);
      const bad = failedFetch(fa, fb, fab);
      if (bad) return [bad];
      return together(u.list, fab.ids, fa.ids, fb.ids, { both: `${u.list} filtered by ${name([a, b])}`, a: name([a]), b: name([b]) }, [a, b]);
    };
    const pairArb = (u: Universe) => filterOf(u.src, ALL, 2, 2).map((pair) => ({ u, pair }));
    // A wide range with a single user: the pair where one side alone is far larger than both together.
    const cases = LISTS.flatMap((l, k) => {
      const u = us.get(l)!;
      const sw = sweep(u.src, t.seed + k, ['common']);
      const range = sw.find((c) => c.label === 'created_at range')!.clauses[0]!;
      const user = sw.find((c) => c.label === 'responsible_user_id single')!.clauses[0]!;
      return [{ u, pair: [range, user] }, ...fc.sample(pairArb(u), { seed: t.seed + k, numRuns: 2 })];
    });
    return { named: cases, judge: check, cases: listArb(us).chain(pairArb) };
  },
);

// --- ranges: a narrower range ⊆ a wider one; adjacent ranges are disjoint -------------------------------------------

interface RangeField { readonly u: Universe; readonly label: string; readonly values: readonly number[]; readonly make: (from?: number, to?: number) => Clause }

function rangeFields(u: Universe): RangeField[] {
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
interface RangeCase { readonly r: RangeField; readonly bounds?: readonly [number, number, number, number] }

const q = (values: readonly number[], p: number): number => values[Math.min(values.length - 1, Math.floor(p * values.length))]!;

const ranges = metaRule(
  {
    id: 'lists.filter.meta.range-narrowing', requires: [], needs: ['access-token'],
    title: 'A narrower range returns a subset of a wider one, and two adjacent ranges share no record',
    reading: 'Read-only. Holds whether bounds are inclusive or exclusive (that choice is reported by lists.filter.info.range-bounds): [b,c] ⊆ [a,d] ⊆ [a,∞) for a ≤ b ≤ c ≤ d, and [a,m] ∩ [m+1,d] = ∅ for integer values. The open range [a,∞) is judged when answered; its refusal is recorded (§4.2 shows [from] and [to]; one bound alone is not stated, K18).',
    covers: ['4.2/Range', '4.2/filter[created_at]', '4.2/filter[updated_at]', '4.2/filter[closest_task_at]', '4.2/api/v4/leads filter[price]', '4.2/api/v4/leads filter[closed_at]', '4.2/api/v4/customers filter[next_price]', '4.2/api/v4/customers filter[next_date]', '4.2/numeric', '4.2/date, date_time'],
  },
  'range relations held',
  (t, { bearer, us }): Plan<RangeCase> => {
    const fields = LISTS.flatMap((l) => rangeFields(us.get(l)!));
    const sweepCheck = async (r: RangeField): Promise<Finding[]> => {
      const [a, b, m, c, d] = [0.9, 0.91, 0.92, 0.93, 0.94].map((p) => q(r.values, p)) as [number, number, number, number, number];
      const wide = await fetchFiltered(t, bearer, r.u.list, [r.make(a, d)]);
      const narrow = await fetchFiltered(t, bearer, r.u.list, [r.make(b, c)]);
      // [m+1, d] exists only while m < d: values bunched at the top leave no upper range to compare (never a reversed one).
      const adjacent = m + 1 <= d;
      const lower = await fetchFiltered(t, bearer, r.u.list, [r.make(a, m)]);
      const upper = adjacent ? await fetchFiltered(t, bearer, r.u.list, [r.make(m + 1, d)]) : lower;
      const bad = failedFetch(wide, narrow, lower, upper);
      if (bad) return [bad];
      const n = `${r.u.list} ${r.label}`;
      // The open range [a,∞) is not stated (§4.2 shows [from] and [to]): its refusal is recorded, the relation judged when answered.
      const open = await fetchFiltered(t, bearer, r.u.list, [r.make(a)]);
      return [
        subsetOf(`${n}: [b,c] ⊆ [a,d]`, narrow.ids, wide.ids, `[${b}, ${c}]`, `[${a}, ${d}]`),
        open.ok ? subsetOf(`${n}: [a,d] ⊆ [a,∞)`, wide.ids, open.ids, `[${a}, ${d}]`, `[${a}, ∞)`) : open.finding,
        adjacent ? disjoint(`${n}: [a,m] ∩ [m+1,d] = ∅`, lower.ids, upper.ids, `[${a}, ${m}]`, `[${m + 1}, ${d}]`) : noted(`${n}: [a,m] ∩ [m+1,d] = ∅`, `m = ${m} and d = ${d}: no upper range to compare`),
      ];
    };
    // a ≤ b ≤ c ≤ d a few percent of the values apart, so the ranges stay narrow.
    const arb = fc.constantFrom(...fields).chain((r) => {
      const n = r.values.length;
      const step = fc.nat({ max: Math.max(1, Math.floor(n / 40)) });
      return fc.tuple(fc.nat({ max: n - 1 }), step, step, step).map(([i, x, y, z]) => {
        const at = (k: number) => r.values[Math.min(n - 1, k)]!;
        return { r, bounds: [at(i), at(i + x), at(i + x + y), at(i + x + y + z)] as const };
      });
    });
    const propertyCheck = async ({ r, bounds: [a, b, c, d] }: { r: RangeField; bounds: readonly [number, number, number, number] }): Promise<Finding[]> => {
      const wide = await fetchFiltered(t, bearer, r.u.list, [r.make(a, d)]);
      const narrow = await fetchFiltered(t, bearer, r.u.list, [r.make(b, c)]);
      const bad = failedFetch(wide, narrow);
      if (bad) return [bad];
      return [subsetOf(`${r.u.list} ${r.label}: [b,c] ⊆ [a,d]`, narrow.ids, wide.ids, `[${b}, ${c}]`, `[${a}, ${d}]`)];
    };
    // The sweep checks five ranges of each field at fixed quantiles; a generated case, four random bounds.
    return { named: fields.map((r) => ({ r })), cases: arb, judge: (c) => (c.bounds ? propertyCheck({ r: c.r, bounds: c.bounds }) : sweepCheck(c.r)) };
  },
);

// --- encodings: raw and percent-encoded brackets, [] and [0] arrays, scalar singles ---------------------------------

const encodings = metaRule(
  {
    id: 'lists.filter.meta.encodings', requires: [], needs: ['access-token'],
    title: 'Raw and percent-encoded brackets, [] and [0] arrays and the scalar single form give the same result',
    reading: 'Read-only. §4.2 writes Multiple as filter[f][0]=…&filter[f][1]=… and custom fields as filter[custom_fields_values][id][]=…; public clients send raw brackets, percent-encoded brackets (qs) and [] arrays (docs/field-notes.md). A percent-encoded bracket is the same character in a URL query (RFC 3986 §2.1), so all forms should mean the same filter: a spelling refused fails, two spellings that answer differently are non_strict (REQ-4.2-encodings-equivalent, rfc-unstated).',
    covers: ['4.2/Single', '4.2/Multiple', '4.2/Custom fields', '4.2/Statuses (deals)'],
  },
  'encodings agreed',
  (t, { bearer, us }) => {
    const check = async ({ u, clauses, a, b }: { u: Universe; clauses: readonly Clause[]; a: Encoding; b: Encoding }): Promise<Finding[]> => {
      const fa = await fetchFiltered(t, bearer, u.list, clauses, a);
      const fb = await fetchFiltered(t, bearer, u.list, clauses, b);
      const bad = failedFetch(fa, fb);
      if (bad) return [bad];
      return [equivalentSpellings(`${u.list} ${name(clauses)}: ${describeEncoding(a)} vs ${describeEncoding(b)}`, fa.ids, fb.ids, describeEncoding(a), describeEncoding(b))];
    };
    const cases: { u: Universe; clauses: readonly Clause[]; a: Encoding; b: Encoding }[] = [];
    for (const [k, l] of LISTS.entries()) {
      const u = us.get(l)!;
      const sw = sweep(u.src, t.seed + k, ALL);
      const pick = (label: string) => sw.find((c) => c.label === label)?.clauses[0];
      const multi = [pick('created_by multiple'), sw.find((c) => c.label.startsWith('custom field') && c.clauses[0]!.kind === 'cf-values' && c.clauses[0]!.values.length > 1)?.clauses[0], pick('statuses')].filter((c): c is Clause => !!c);
      const single = [pick('responsible_user_id single'), pick('created_at range')].filter((c): c is Clause => !!c);
      // Each multiple-value clause alone (ANDed they may select nothing, which every encoding agrees on).
      for (const e of ENCODINGS.slice(1)) {
        for (const c of multi) cases.push({ u, clauses: [c], a: DEFAULT_ENCODING, b: e });
        cases.push({ u, clauses: single, a: DEFAULT_ENCODING, b: e });
      }
    }
    const arb = listArb(us).chain((u) => fc.record({ clauses: filterOf(u.src, ALL, 3, 2), a: encodingArb, b: encodingArb }).map((r) => ({ u, ...r })));
    return { named: cases, judge: check, cases: arb };
  },
);

// --- parameter order ---------------------------------------------------------------------------------------------------

const order = metaRule(
  {
    id: 'lists.filter.meta.param-order', requires: [], needs: ['access-token'],
    title: 'The order of the filter parameters in the query does not change the result',
    reading: 'Read-only. filter is an object (§4.2 "Container"); its keys have no order.',
    covers: ['4.2/filter'],
  },
  'orders agreed',
  (t, { bearer, us }) => {
    const check = async ({ u, clauses }: { u: Universe; clauses: readonly Clause[] }): Promise<Finding[]> => {
      const reversed = [...clauses].reverse();
      const fa = await fetchFiltered(t, bearer, u.list, clauses);
      const fb = await fetchFiltered(t, bearer, u.list, reversed);
      const bad = failedFetch(fa, fb);
      if (bad) return [bad];
      return [sameSet(`${u.list}: order of ${name(clauses)}`, fa.ids, fb.ids, name(clauses), name(reversed))];
    };
    const arb = (u: Universe) => filterOf(u.src, ALL, 3, 2).map((clauses) => ({ u, clauses }));
    const cases = LISTS.flatMap((l, k) => {
      const u = us.get(l)!;
      const sw = sweep(u.src, t.seed + k, ['common']);
      const user = sw.find((c) => c.label === 'responsible_user_id single')!.clauses[0]!;
      const range = sw.find((c) => c.label === 'updated_at range')!.clauses[0]!;
      return [{ u, clauses: [user, range] }, ...fc.sample(arb(u), { seed: t.seed + k, numRuns: 1 })];
    });
    return { named: cases, judge: check, cases: listArb(us).chain(arb) };
  },
);

// --- pages join ------------------------------------------------------------------------------------------------------

const pages = metaRule(
  {
    id: 'lists.filter.meta.pages-join', requires: [], needs: ['access-token'],
    title: 'The pages of a filtered list, followed through _links.next, join into the one-page answer without duplicates or gaps',
    reading: 'Read-only. The filter applies to the whole list, so every page of a filtered list is filtered. Pagination itself (page, limit ≤ 250, _links.next keeping the query) is not in the spec; it is taken from the live service (docs/field-notes.md). Pages are compared as sets.',
    covers: ['4.2/filter'],
  },
  'pages joined',
  (t, { bearer, us }) => {
    const check = async ({ u, clauses, parts }: { u: Universe; clauses: readonly Clause[]; parts: number }): Promise<Finding[]> => {
      const whole = await fetchFiltered(t, bearer, u.list, clauses);
      if (!whole.ok) return [whole.finding];
      if (whole.ids.size < 2) return [nothingToPage(name(clauses), whole.ids.size)];
      const limit = Math.max(1, Math.ceil(whole.ids.size / parts));
      const paged = await fetchFiltered(t, bearer, u.list, clauses, undefined, { limit });
      if (!paged.ok) return [paged.finding];
      const findings = [sameSet(`${u.list} ${name(clauses)} in pages of ${limit}`, paged.ids, whole.ids, `the ${paged.pages} pages of ${limit}`, 'the one-page answer')];
      findings.push(noDuplicates(paged));
      return findings;
    };
    // A fifth of each list (created between the 50th and 70th percentile), in four or more pages.
    const cases = LISTS.map((l) => {
      const u = us.get(l)!;
      const values = u.src.values('created_at').filter((v): v is number => typeof v === 'number');
      const clause: Clause = { kind: 'range', field: 'created_at', from: q(values, 0.5), to: q(values, 0.7) };
      return { u, clauses: [clause], parts: 4 };
    });
    const arb = listArb(us).chain((u) => fc.record({ clauses: filterOf(u.src, ALL, 2), parts: fc.integer({ min: 2, max: 5 }) }).map((r) => ({ u, ...r })));
    return { named: cases, judge: check, cases: arb };
  },
);

export const METAMORPHIC_RULE_IDS = [consistent, union, intersection, ranges, encodings, order, pages].map((r) => r.id);

export default defineSpec({
  section: '4.2',
  title: 'List filtering: meaning without an oracle (read-only)',
  level: 'must',
  rules: [consistent, union, intersection, ranges, encodings, order, pages],
});

