/**
 * §4.2 List filtering: Filter kinds and their shape.
 *
 * §4.2 List filtering, shapes: every parameter of every list in each of its shapes (single, multiple, range, statuses,
 * custom fields of every type) is accepted; an incomplete statuses element is refused rather than half-applied; bad
 * filters never cause a 5xx; the `query` search finds a record by its name.
 *
 * §4.2 List filtering, safety: characters that SQL LIKE, globs or regular expressions treat as patterns are plain
 * characters in `filter[name]` (an exact match) and in `query` (a search), and a range whose from is after its to
 * selects nothing. Read-only: sent against whatever records the account holds.
 *
 * §4.2 lists, the HTTP limit the filter rules leave: an over-long query string.
 *
 * §4.2 lists: UTF-8 values round-trip, a record named in Cyrillic and emoji is found by its name.
 */
import fc from 'fast-check';
import {
  apiToken, cfClause, type Clause, condense, defineGroup, describeEncoding, emptyOrRefused, encodeFilter, type Encoding, exchangeRule, fail, fetchAll, filterBearer, type Finding, hasOpenRange, type HttpResponse, INVALID_KINDS, type InvalidFilter, invalidFilter, invalidQuery, LIST_MULTIPLE, LIST_RANGE, type ListName, listRequest, LISTS, namesLiterally, nonAsciiLead, nonStrict, noServerError, pass, QUERY_LISTS, RANGE_CF_TYPES, readingLists, rule, sameSet, shapeAccepted, showsRecord, status, sweepRule, TEXT_CF_TYPES, valuesClause, visibleUniverses,
} from '../kit.js';
import {
  RAW_SCALAR, RAW_INDEXED, PERCENT_BRACKETS, type PatternCase, PATTERN_CASES, REVERSED, longIdQuery, type Utf8Fixture, type Parameter,
} from './support.js';

const shapes = rule(
  {
    id: 'lists.filter.shapes', title: 'Every filter parameter of every list is accepted in each of its shapes (single, multiple, range, statuses, custom fields)',
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
    id: 'lists.filter.statuses.incomplete', title: 'A filter[statuses] element missing pipeline_id or status_id is refused, never half-applied',
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
    id: 'lists.filter.no-server-error', level: 'should', title: 'Malformed filters (ranges on non-range fields, non-numeric bounds, unknown fields, huge arrays, deep nesting) never cause a 5xx',
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
    id: 'lists.query.finds-by-name', title: 'query=<a record\'s name> finds that record on deals, contacts and companies',
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

export default defineGroup({
  heading: 'Filter kinds and their shape',
  rules: [
shapes,
 incompleteStatuses,
 robustness,
 query,
    sweepRule<PatternCase, HttpResponse, string>(
      { id: 'lists.filter.patterns-literal', level: 'should', needs: [], title: 'Pattern characters (%, _, *, ?, .*, quotes, backslash) in filter[name] and query are matched literally, never as wildcards',
        reading: '§4.2: filter[name] filters "By name" and query is a "Search string"; neither defines a pattern language, so %, _ or * are characters of a name. Every record returned must hold the value in any letter case: filter[name] in its name (an exact or a substring match, K35), query in any of its values (which fields it searches is not stated). Usually none do: an empty answer passes, and so does a refusal (4xx); a body that is not a list is recorded. Skipped when the paid filter feature is off (filters are then ignored, docs/field-notes.md).' },
      {
        setup: filterBearer,
        named: PATTERN_CASES,
        send: (t, c, bearer) => t.send(listRequest(t.target, bearer, c.list, `${c.param === 'query' ? 'query' : 'filter[name]'}=${encodeURIComponent(c.value)}`)),
        expect: (_t, c) => [namesLiterally(c.list, c.value, c.param === 'query' ? 'contains' : 'equals')],
        label: (c) => `${c.list} ${c.param}=${c.value}`,
      },
    ),
    sweepRule<ListName, HttpResponse, string>(
      { id: 'lists.filter.range-reversed', needs: [], title: 'A range whose from is after its to (filter[created_at]) selects nothing: an empty answer or 400, never records',
        reading: '§4.2: a range filter selects values from [from] to [to]; with from after to no value is in it. A server that swaps or drops the bounds returns records the caller excluded. An empty 200, a 204 or any 4xx pass (K34); a 2xx body not shaped as a list is recorded (the list body is "not shown"). Skipped when the paid filter feature is off.' },
      {
        setup: filterBearer,
        named: LISTS,
        send: (t, list, bearer) => t.send(listRequest(t.target, bearer, list, REVERSED(Math.floor(Date.now() / 1000) + 86_400))),
        expect: (_t, list) => [emptyOrRefused(list)],
        label: (list) => list,
      },
    ),
    exchangeRule(
      { id: 'lists.http.long-query', level: 'should', needs: [], title: 'A list request with a 100 KB filter[id] query is answered, accepted or refused, never with a 5xx or a dropped connection',
        reading: 'Robustness (REQ-4.2-http-long-query, K36): the spec states no limit on a query, so a server that takes the request (2xx) passes, and so does any refusal: 414 (RFC 9110 §15.5.15), 400, or 431 (RFC 6585 §5, Node and nginx hold the request line and headers in one buffer). Only a 5xx, a reset or a hang fails.' },
      { setup: apiToken, send: (t, token) => t.send(listRequest(t.target, token, 'leads', longIdQuery())), expect: [noServerError] },
    ),
    sweepRule<Parameter, HttpResponse, Utf8Fixture>(
      { id: 'lists.filter.non-ascii-name', requires: ['write'], needs: ['non-ascii-record'], exclusive: true,
        creates: 'one lead named in Cyrillic and emoji (through the control API; without one, NON_ASCII_LEAD_ID names a lead made beforehand)',
        title: 'A lead named in Cyrillic and emoji is found by its percent-encoded UTF-8 name in filter[name] and in query',
        reading: '§4.2: filter[name] filters by name and query searches (leads, contacts, companies); query strings are UTF-8 percent-encoded (RFC 3986 §2.5), so a non-ASCII name must find its record. The record is created through the control API (the rule runs alone: it adds a record others would see), else it is the lead NON_ASCII_LEAD_ID of the settings, named NON_ASCII_LEAD_NAME.' },
      {
        setup: async (t) => {
          const made = await nonAsciiLead(t, `Сделка ${t.runId.slice(0, 8)} 😀`);
          return { token: await apiToken(t), ...made };
        },
        named: ['filter[name]', 'query'],
        send: (t, parameter, f) => t.send(listRequest(t.target, f.token, 'leads', `${encodeURIComponent(parameter)}=${encodeURIComponent(f.name)}`)),
        expect: (_t, _parameter, f) => [showsRecord(f.id, 'the record by its non-ASCII name')],
        label: (parameter) => parameter,
      },
    ),
  ],
});
