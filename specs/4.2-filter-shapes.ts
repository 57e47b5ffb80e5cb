/**
 * §4.2 List filtering, shapes: every parameter of every list in each of its shapes (single, multiple, range, statuses,
 * custom fields of every type) is accepted; an incomplete statuses element is refused rather than half-applied; bad
 * filters never cause a 5xx; the `query` search finds a record by its name.
 */
import fc from 'fast-check';
import {
  readingLists, cfClause, type Clause, condense, defineSpec, describeEncoding, encodeFilter, type Encoding, fail, fetchAll, filterBearer, type Finding, hasOpenRange, INVALID_KINDS, type InvalidFilter, invalidFilter, invalidQuery, LIST_MULTIPLE, LIST_RANGE, type ListName, listRequest, LISTS, nonStrict, noServerError, pass, QUERY_LISTS, RANGE_CF_TYPES, rule, sameSet, shapeAccepted, status, TEXT_CF_TYPES, valuesClause, visibleUniverses,
} from './kit.js';

const RAW_SCALAR: Encoding = { brackets: 'raw', arrays: 'indexed', single: 'scalar' };
const RAW_INDEXED: Encoding = { brackets: 'raw', arrays: 'indexed', single: 'array' };
const PERCENT_BRACKETS: Encoding = { brackets: 'percent', arrays: 'brackets', single: 'array' };

const shapes = rule(
  {
    id: 'lists.filter.shapes', requires: [], needs: ['access-token'],
    title: 'Every filter parameter of every list is accepted in each of its shapes (single, multiple, range, statuses, custom fields)',
    reading: 'Read-only; values are taken from the records the list shows. Each of the four lists is first read without a filter: a refusal (a 404) of a list §4.2 names fails. A 2xx (200, or 204 when nothing matches) is accepted; a 4xx refuses a shape §4.2 allows. Single values are sent as filter[f]=v, multiple ones as [0] arrays and as percent-encoded [] arrays, ranges with both bounds; custom fields with [] values, and ranges for numeric, date and date_time. A range with one bound is sent too, and its refusal only recorded: §4.2 shows [from] and [to], an open range is not stated (K18).',
    covers: ['4.2/filter', '4.2/filter[id]', '4.2/filter[name]', '4.2/filter[created_by]', '4.2/filter[updated_by]', '4.2/filter[responsible_user_id]', '4.2/filter[created_at]', '4.2/filter[updated_at]', '4.2/filter[closest_task_at]', '4.2/filter[custom_fields_values]', '4.2/api/v4/leads filter[price]', '4.2/api/v4/leads filter[statuses]', '4.2/api/v4/leads filter[pipeline_id]', '4.2/api/v4/leads filter[closed_at]', '4.2/api/v4/customers filter[next_price]', '4.2/api/v4/customers filter[next_date]', '4.2/api/v4/customers filter[status_id]', '4.2/Single', '4.2/Multiple', '4.2/Range', '4.2/Statuses (deals)', '4.2/Custom fields', '4.2/numeric', '4.2/text, url, textarea, streetaddress', '4.2/select, multiselect, radiobutton', '4.2/checkbox', '4.2/date, date_time'],
  },
  readingLists(async (t) => {
    const bearer = await filterBearer(t);
    // Each list answers at all (§4.2 "Filtering is available for four lists"): a refused list fails here, where the
    // other read-only rules only end errored on it (their precondition, K22).
    const unfiltered: Finding[] = [];
    for (const list of LISTS) unfiltered.push(shapeAccepted(`${list} without a filter`)(await t.send(listRequest(t.target, bearer, list, 'limit=1'))));
    if (unfiltered.some((f) => f.verdict === 'failed')) return t.outcome(unfiltered);
    const us = await visibleUniverses(t, bearer);
    const one = <T>(arb: fc.Arbitrary<T>, k: number): T => fc.sample(arb, { seed: t.seed + k, numRuns: 1 })[0]!;
    const findings: Finding[] = [];
    let k = 0;
    const send = async (list: ListName, label: string, clause: Clause, e: Encoding) => {
      const res = await t.send(listRequest(t.target, bearer, list, `${encodeFilter([clause], e)}&limit=1`));
      findings.push(shapeAccepted(`${list} ${label} (${describeEncoding(e)})`, hasOpenRange([clause]))(res));
    };
    for (const list of LISTS) {
      const src = us.get(list)!.src;
      for (const field of LIST_MULTIPLE[list]) {
        await send(list, `${field} single`, one(valuesClause(src, field, { min: 1, max: 1 }), k++), RAW_SCALAR);
        await send(list, `${field} multiple`, one(valuesClause(src, field, { min: 2, max: 3 }), k++), RAW_INDEXED);
        await send(list, `${field} multiple`, one(valuesClause(src, field, { min: 2, max: 3 }), k++), PERCENT_BRACKETS);
      }
      for (const field of LIST_RANGE[list]) {
        const values = src.values(field).filter((v): v is number => typeof v === 'number');
        const [lo, hi] = [values[Math.floor(values.length / 4)] ?? 0, values[Math.floor((3 * values.length) / 4)] ?? 1];
        await send(list, `${field} range`, { kind: 'range', field, from: lo, to: hi }, RAW_INDEXED);
        await send(list, `${field} range from`, { kind: 'range', field, from: lo }, PERCENT_BRACKETS);
        await send(list, `${field} range to`, { kind: 'range', field, to: hi }, RAW_INDEXED);
      }
      if (list === 'leads') {
        const pairs = src.statusPairs.slice(0, 2);
        await send(list, 'statuses', { kind: 'statuses', pairs: pairs.length > 0 ? pairs : [{ pipeline_id: 1, status_id: 1 }] }, RAW_INDEXED);
      }
      if (list === 'customers') await send(list, 'next_price single', one(valuesClause(src, 'next_price', { min: 1, max: 1 }), k++), RAW_SCALAR);
      for (const field of src.cfFields) {
        await send(list, `custom field ${field.type}`, one(cfClause(field), k++), { brackets: 'raw', arrays: 'brackets', single: 'array' });
        if (RANGE_CF_TYPES.includes(field.type)) await send(list, `custom field ${field.type} range`, one(cfClause(field, { range: true }), k++), RAW_INDEXED);
      }
    }
    const types = new Set(LISTS.flatMap((l) => us.get(l)!.src.cfFields.map((f) => f.type)));
    if (types.size === 0) findings.push(nonStrict('custom fields', 'no record shows custom_fields_values: custom-field shapes were not tried'));
    return t.outcome(condense(findings, 'shapes accepted'));
  }),
);

const incompleteStatuses = rule(
  {
    id: 'lists.filter.statuses.incomplete', requires: [], needs: ['access-token'],
    title: 'A filter[statuses] element missing pipeline_id or status_id is refused, never half-applied',
    reading: '§4.2: "both keys required in each element". Policy: a 400 passes (another 4xx is non_strict); a 2xx that ignores the element is non_strict; a 2xx that applies the key that is there (every status of the pipeline, or the status in every pipeline) fails. Read-only.',
    covers: ['4.2/Statuses (deals)', '4.2/api/v4/leads filter[statuses]'],
  },
  readingLists(async (t) => {
    const bearer = await filterBearer(t);
    const u = (await visibleUniverses(t, bearer, ['leads'])).get('leads')!;
    const pair = u.src.statusPairs.find((p) => u.records.some((r) => r.pipeline_id === p.pipeline_id && r.status_id !== p.status_id)) ?? u.src.statusPairs[0];
    if (!pair) return t.outcome([nonStrict('statuses', 'no lead shows pipeline_id and status_id: nothing to build an element from')]);
    const findings: Finding[] = [];
    const variants = [
      { missing: 'status_id', element: { pipeline_id: pair.pipeline_id }, half: (r: typeof u.records[number]) => r.pipeline_id === pair.pipeline_id },
      { missing: 'pipeline_id', element: { status_id: pair.status_id }, half: (r: typeof u.records[number]) => r.status_id === pair.status_id },
    ];
    for (const v of variants) {
      const query = encodeFilter([{ kind: 'statuses', pairs: [v.element] }]);
      const res = await t.send(listRequest(t.target, bearer, 'leads', `${query}&limit=1`));
      const what = `statuses element without ${v.missing}`;
      if (res.status >= 300 || res.status < 200) { findings.push({ ...status(400)(res), check: what }); continue; }
      const all = await fetchAll(t, bearer, 'leads', query);
      if (!all.ok) { findings.push(all.finding); continue; }
      const halfIds = new Set(u.records.filter(v.half).map((r) => r.id));
      if (halfIds.size < u.ids.size && sameSet(what, all.ids, halfIds, '', '').verdict === 'passed') {
        findings.push(fail(what, `expected a refusal (400), observed ${res.status} with the element half-applied: the ${all.ids.size} leads whose ${v.missing === 'status_id' ? `pipeline_id is ${pair.pipeline_id}` : `status_id is ${pair.status_id}`}, whatever their ${v.missing}`));
      } else if (sameSet(what, all.ids, u.ids, '', '').verdict === 'passed') {
        findings.push(nonStrict(what, `expected a refusal (400), observed ${res.status} with the element ignored (the whole list)`));
      } else {
        findings.push(nonStrict(what, `expected a refusal (400), observed ${res.status} with ${all.ids.size} leads`));
      }
    }
    return t.outcome(findings);
  }),
);

const robustness = rule(
  {
    id: 'lists.filter.no-server-error', level: 'should', requires: [], needs: ['access-token'],
    title: 'Malformed filters (ranges on non-range fields, non-numeric bounds, unknown fields, huge arrays, deep nesting) never cause a 5xx',
    reading: 'Robustness: the spec does not say how a bad filter is answered, so a 4xx and a 2xx both pass; only a 5xx fails. Every kind of breakage is sent on every list on every run, then generated ones.',
    covers: ['4.2/filter', '4.2/Range', '4.2/Multiple', '4.2/Statuses (deals)', '4.2/Custom fields'],
  },
  readingLists(async (t) => {
    const bearer = await filterBearer(t);
    const us = await visibleUniverses(t, bearer);
    const textField = (list: ListName) => us.get(list)!.src.cfFields.find((f) => TEXT_CF_TYPES.includes(f.type))?.id;
    const check = async ({ list, inv }: { list: ListName; inv: InvalidFilter }): Promise<Finding[]> => {
      const res = await t.send(listRequest(t.target, bearer, list, invalidQuery(inv)));
      const f = noServerError(res);
      return [{ ...f, check: `${list} ${inv.breaks}`, detail: f.verdict === 'passed' ? f.detail : `${f.detail} for ${JSON.stringify(inv)}` }];
    };
    const findings: Finding[] = [];
    for (const [k, list] of LISTS.entries()) {
      for (const kind of INVALID_KINDS) {
        const inv = fc.sample(invalidFilter(list, kind, textField(list)), { seed: t.seed + k, numRuns: 1 })[0]!;
        findings.push(...(await check({ list, inv })));
      }
    }
    const condensed = condense(findings, 'no 5xx');
    if (condensed.some((f) => f.verdict === 'failed')) return t.outcome(condensed);
    const arb = fc.constantFrom(...LISTS).chain((list) => fc.constantFrom(...INVALID_KINDS).chain((kind) => invalidFilter(list, kind, textField(list))).map((inv) => ({ list, inv })));
    return t.property(arb, check);
  }),
);

const query = rule(
  {
    id: 'lists.query.finds-by-name', requires: [], needs: ['access-token'],
    title: 'query=<a record\'s name> finds that record on deals, contacts and companies',
    reading: '§4.2: query is a "search string" on deals, contacts and companies. Whatever else it searches, a record\'s whole name finds the record; every record returned is one the list shows. Read-only.',
    covers: ['4.2/query'],
  },
  readingLists(async (t) => {
    const bearer = await filterBearer(t);
    const us = await visibleUniverses(t, bearer, QUERY_LISTS);
    const findings: Finding[] = [];
    for (const [k, list] of QUERY_LISTS.entries()) {
      const u = us.get(list)!;
      const named = u.records.filter((r) => typeof r.name === 'string' && r.name.trim() !== '');
      for (const r of fc.sample(fc.constantFrom(...named), { seed: t.seed + k, numRuns: 2 })) {
        const got = await fetchAll(t, bearer, list, `query=${encodeURIComponent(r.name as string)}`);
        if (!got.ok) { findings.push(got.finding); continue; }
        findings.push(got.ids.has(r.id)
          ? pass(`${list} query`, `query "${r.name}" found record ${r.id} among ${got.ids.size}`)
          : fail(`${list} query`, `expected query "${r.name}" to find record ${r.id}, observed ${got.ids.size} record(s) without it`));
        const foreign = [...got.ids].filter((id) => !u.ids.has(id));
        if (!u.truncated && foreign.length > 0) findings.push(fail(`${list} query ⊆ list`, `expected only records the list shows, observed ${foreign.length} others (ids ${foreign.slice(0, 5).join(', ')})`));
      }
    }
    return t.outcome(condense(findings, 'query found its records'));
  }),
);

export default defineSpec({
  section: '4.2',
  title: 'List filtering: parameters and their shapes',
  level: 'must',
  rules: [shapes, incompleteStatuses, robustness, query],
});
