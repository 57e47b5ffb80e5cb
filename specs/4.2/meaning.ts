/**
 * §4.2 List filtering: Parameters and their meaning.
 *
 * §4.2 List filtering, meaning with an oracle: the control API gives the ground truth (every record of every list), so
 * each filter is judged both ways: every returned record satisfies it, and every ground-truth record that satisfies it
 * is returned, across all pages. One rule per group of parameters (common, per list, custom fields), each sweeping
 * every parameter of its group on every run, then generated filters combining several.
 *
 * §4.2 List filtering, meaning without an oracle: read-only rules for any target (a staging account with whatever data
 * it holds). The universe is what the target itself shows without a filter; relations between answers do the rest:
 * filtered ⊆ unfiltered and consistent with the records' own fields, multiple values = union of the single values,
 * two filters together ⊆ each alone, a narrower range ⊆ a wider one, encodings and parameter order do not matter,
 * pages join without duplicates or gaps.
 *
 * §4.2 lists: a list shows its own account's records only, whatever the filter names.
 */
import fc from 'fast-check';
import {
  apiToken, BRACKETS, type Clause, DEFAULT_ENCODING, defineGroup, describeEncoding, disjoint, type Encoding, encodingArb, ENCODINGS, equivalentSpellings, fetchFiltered, filterOf, type Finding, type HttpResponse, judgeFilter, listArb, type ListName, listRequest, LISTS, noDuplicates, noted, nothingToPage, otherAccountIds, Precondition, sameSet, type Scalar, showsNoneOf, subsetOf, sweep, type SweepCase, sweepRule, together, type Universe,
} from '../kit.js';
import {
  oracleRule, ALL, name, failedFetch, type Plan, metaRule, type UnionCase, unionCases, type RangeField, rangeFields, type RangeCase, q, type IsolationFixture, idFilter,
} from './support.js';

// --- consistent: filtered ⊆ unfiltered, and agrees with the records' own fields -------------------------------------
const consistent = metaRule<{ u: Universe; c: SweepCase }>(
  {
    id: 'lists.filter.meta.consistent', title: 'A filtered list is the part of the unfiltered list whose own fields satisfy the filter',
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

const union = metaRule(
  {
    id: 'lists.filter.meta.union', title: 'A Multiple filter returns the union of its single values (and distinct values of a one-valued field share no record)',
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
    id: 'lists.filter.meta.intersection', title: 'Two filter parameters together return a subset of each one alone',
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

const ranges = metaRule(
  {
    id: 'lists.filter.meta.range-narrowing', title: 'A narrower range returns a subset of a wider one, and two adjacent ranges share no record',
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
    id: 'lists.filter.meta.encodings', title: 'Raw and percent-encoded brackets, [] and [0] arrays and the scalar single form give the same result',
    reading: 'Read-only. §4.2 writes Multiple as filter[f][0]=…&filter[f][1]=… and custom fields as filter[custom_fields_values][id][]=…; public clients send raw brackets, percent-encoded brackets (qs) and [] arrays (docs/field-notes.md). A percent-encoded bracket is the same character in a URL query (RFC 3986 §2.1), so all forms mean the same filter: a spelling refused fails, and so do two spellings that answer differently (REQ-4.2-encodings-equivalent: §4.2 writes the Single, Multiple and [] forms, and a query carries brackets only percent-encoded, RFC 3986 §3.4; R2-A12).',
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
    id: 'lists.filter.meta.param-order', title: 'The order of the filter parameters in the query does not change the result',
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
    id: 'lists.filter.meta.pages-join', title: 'The pages of a filtered list, followed through _links.next, join into the one-page answer without duplicates or gaps',
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

export default defineGroup({
  heading: 'Parameters and their meaning',
  rules: [
    oracleRule('lists.filter.oracle.common', 'Every common filter parameter returns exactly the ground-truth records that satisfy it, on all four lists', 'common', LISTS,
      ['4.2/filter', '4.2/filter[id]', '4.2/filter[name]', '4.2/filter[created_by]', '4.2/filter[updated_by]', '4.2/filter[responsible_user_id]', '4.2/filter[created_at]', '4.2/filter[updated_at]', '4.2/filter[closest_task_at]', '4.2/Single', '4.2/Multiple', '4.2/Range']),
    oracleRule('lists.filter.oracle.per-list', 'The deal and customer parameters (price, statuses, pipeline_id, closed_at, next_price, next_date, status_id) return exactly the matching ground-truth records', 'per-list', ['leads', 'customers'],
      ['4.2/api/v4/leads filter[price]', '4.2/api/v4/leads filter[statuses]', '4.2/api/v4/leads filter[pipeline_id]', '4.2/api/v4/leads filter[closed_at]', '4.2/api/v4/customers filter[next_price]', '4.2/api/v4/customers filter[next_date]', '4.2/api/v4/customers filter[status_id]', '4.2/Statuses (deals)', '4.2/Range', '4.2/Multiple']),
    oracleRule('lists.filter.oracle.custom-fields', 'Custom-field filters of every type return exactly the matching ground-truth records', 'custom-fields', LISTS,
      ['4.2/filter[custom_fields_values]', '4.2/Custom fields', '4.2/numeric', '4.2/text, url, textarea, streetaddress', '4.2/select, multiselect, radiobutton', '4.2/checkbox', '4.2/date, date_time']),
consistent,
 union,
 intersection,
 ranges,
 encodings,
 order,
 pages,
    sweepRule<ListName, HttpResponse, IsolationFixture>(
      { id: 'lists.filter.other-account-ids', needs: ['foreign-records'],
        title: 'filter[id] naming another account\'s records returns none of them, on each of the four lists',
        reading: '§4.2 (and §0: one base_url per account): a token of one account reaches that account\'s records only. The ids are read from the control API\'s ground truth of a second account (those this account also holds are left out), else from OTHER_ACCOUNT_RECORD_IDS of the settings. 204 or a page without them passes; a refusal of the valid filter is non_strict.' },
      {
        setup: async (t) => {
          const foreign = new Map<ListName, readonly number[]>();
          for (const list of LISTS) foreign.set(list, await otherAccountIds(t, list));
          if ([...foreign.values()].every((ids) => ids.length === 0)) throw new Precondition('the second account holds no id this account does not');
          return { token: await apiToken(t), foreign };
        },
        named: LISTS,
        send: (t, list, f) => t.send(listRequest(t.target, f.token, list, idFilter(f.foreign.get(list) ?? []))),
        expect: (_t, list, f) => [showsNoneOf(f.foreign.get(list) ?? [], 'the other account')],
        label: (list) => list,
      },
    ),
  ],
});
