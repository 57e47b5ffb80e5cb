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
  apiToken, customFieldShapesTried, eachStep, encodeFilter, fetchAll, fetchFinds, fetchWithin, filterBearer, hasOpenRange, incompleteElementRefused, incompleteStatusesProbe, type IncompleteSeen, listQueryArb, type ListQuery, namedListQueries, noServerErrorFor, readsLists, scenarioRule, shapeAccepted, statusPairFound, step, sweepStep, type Universe, defineGroup, emptyOrRefused, exchangeRule, type HttpResponse, type ListFetch, type ListName, listRequest, LISTS, namesLiterally, nonAsciiLead, noServerError, QUERY_LISTS, showsRecord, sweepRule, visibleUniverses, invalidQuery,
} from '../kit.js';
import {
  cfTypesShown, type IncompleteCase, incompleteCases, incompletePair, type InvalidCase, invalidCaseArb, invalidCases, type Lists, type PatternCase, PATTERN_CASES, type QueryCase, queryCases, REVERSED, longIdQuery, type ShapeCase, shapeCases, type StatusesFixture, type Utf8Fixture, type Parameter,
} from './support.js';

// Each list answers at all (§4.2 "Filtering is available for four lists"): a refused list fails the first step; then
// every shape, each on one page.
const shapes = readsLists(scenarioRule<string>(
  {
    id: 'lists.filter.shapes', title: 'Every filter parameter of every list is accepted in each of its shapes (single, multiple, range, statuses, custom fields)',
    reading: 'Read-only; values are taken from the records the list shows. Each of the four lists is first read without a filter: a refusal (a 404) of a list §4.2 names fails. A 2xx (200, or 204 when nothing matches) is accepted; a 4xx refuses a shape §4.2 allows. Single values are sent as filter[f]=v, multiple ones as [0] arrays and as percent-encoded [] arrays, ranges with both bounds; custom fields with [] values, and ranges for numeric, date and date_time. A range with one bound is sent too, and its refusal only recorded: §4.2 shows [from] and [to], an open range is not stated (K18).',
    covers: ['4.2/filter', '4.2/filter[id]', '4.2/filter[name]', '4.2/filter[created_by]', '4.2/filter[updated_by]', '4.2/filter[responsible_user_id]', '4.2/filter[created_at]', '4.2/filter[updated_at]', '4.2/filter[closest_task_at]', '4.2/filter[custom_fields_values]', '4.2/api/v4/leads filter[price]', '4.2/api/v4/leads filter[statuses]', '4.2/api/v4/leads filter[pipeline_id]', '4.2/api/v4/leads filter[closed_at]', '4.2/api/v4/customers filter[next_price]', '4.2/api/v4/customers filter[next_date]', '4.2/api/v4/customers filter[status_id]', '4.2/Single', '4.2/Multiple', '4.2/Range', '4.2/Statuses (deals)', '4.2/Custom fields', '4.2/numeric', '4.2/text, url, textarea, streetaddress', '4.2/select, multiselect, radiobutton', '4.2/checkbox', '4.2/date, date_time'],
  },
  {
    setup: filterBearer,
    steps: [
      eachStep<string, ListName>({
        items: () => LISTS,
        label: (list) => list,
        observe: (t, bearer, list) => t.send(listRequest(t.target, bearer, list, 'limit=1')),
        expect: () => [shapeAccepted('without a filter')],
      }),
      sweepStep<string, ShapeCase>({
        items: async (t, bearer) => shapeCases(await visibleUniverses(t, bearer), t.seed),
        label: (c) => c.label,
        observe: (t, bearer, c) => t.send(listRequest(t.target, bearer, c.list, `${encodeFilter([c.clause], c.encoding)}&limit=1`)),
        expect: (c) => [shapeAccepted('accepted', hasOpenRange([c.clause]))],
        what: 'shapes accepted',
      }),
      step('', async (t, bearer) => cfTypesShown(await visibleUniverses(t, bearer)), [customFieldShapesTried]),
    ],
  },
));

const incompleteStatuses = readsLists(scenarioRule<StatusesFixture>(
  {
    id: 'lists.filter.statuses.incomplete', title: 'A filter[statuses] element missing pipeline_id or status_id is refused, never half-applied',
    reading: '§4.2: "both keys required in each element". Policy: a 400 passes (another 4xx is non_strict); a 2xx that ignores the element is non_strict; a 2xx that applies the key that is there (every status of the pipeline, or the status in every pipeline) fails. Read-only.',
    covers: ['4.2/Statuses (deals)', '4.2/api/v4/leads filter[statuses]'],
  },
  {
    setup: async (t) => {
      const bearer = await filterBearer(t);
      const u = (await visibleUniverses(t, bearer, ['leads'])).get('leads')!;
      return { bearer, u, pair: incompletePair(u) };
    },
    steps: [
      step('', async (_t, f) => f.pair, [statusPairFound]),
      sweepStep<StatusesFixture, IncompleteCase, IncompleteSeen>({
        items: (_t, f) => incompleteCases(f.u, f.pair),
        label: (c) => `statuses element without ${c.missing}`,
        observe: (t, f, c) => incompleteStatusesProbe(t, f.bearer, c.query),
        expect: (c) => [incompleteElementRefused(c)],
        what: 'incomplete elements refused',
      }),
    ],
  },
));

const robustness = readsLists(sweepRule<InvalidCase, HttpResponse, Lists>(
  {
    id: 'lists.filter.no-server-error', level: 'should', title: 'Malformed filters (ranges on non-range fields, non-numeric bounds, unknown fields, huge arrays, deep nesting) never cause a 5xx',
    reading: 'Robustness: the spec does not say how a bad filter is answered, so a 4xx and a 2xx both pass; only a 5xx fails. Every kind of breakage is sent on every list on every run, then generated ones.',
    covers: ['4.2/filter', '4.2/Range', '4.2/Multiple', '4.2/Statuses (deals)', '4.2/Custom fields'],
  },
  {
    setup: async (t) => {
      const bearer = await filterBearer(t);
      return { bearer, us: await visibleUniverses(t, bearer) };
    },
    named: (t, { us }) => invalidCases(us, t.seed),
    cases: (_t, { us }) => invalidCaseArb(us),
    send: (t, c, { bearer }) => t.send(listRequest(t.target, bearer, c.list, invalidQuery(c.inv))),
    expect: (_t, c) => [noServerErrorFor(JSON.stringify(c.inv))],
    label: (c) => `${c.list} ${c.inv.breaks}`,
    what: 'no 5xx',
  },
));

const query = readsLists(sweepRule<QueryCase, ListFetch, Lists>(
  {
    id: 'lists.query.finds-by-name', title: 'query=<a record\'s name> finds that record on deals, contacts and companies',
    reading: '§4.2: query is a "search string" on deals, contacts and companies. Whatever else it searches, a record\'s whole name finds the record; every record returned is one the list shows. Read-only.',
    covers: ['4.2/query'],
  },
  {
    setup: async (t) => {
      const bearer = await filterBearer(t);
      return { bearer, us: await visibleUniverses(t, bearer, QUERY_LISTS) };
    },
    named: (t, { us }) => queryCases(us, t.seed),
    send: (t, c, { bearer }) => fetchAll(t, bearer, c.u.list, `query=${encodeURIComponent(c.name)}`),
    expect: (_t, c) => [fetchFinds(c.id, `query "${c.name}"`), fetchWithin(c.u.ids, c.u.truncated)],
    label: (c) => `${c.u.list} query`,
    what: 'query found its records',
  },
));

const validSpace = readsLists(sweepRule<ListQuery, HttpResponse, { readonly bearer: string; readonly us: Map<ListName, Universe> }>(
  {
    id: 'lists.query.valid-no-server-error', level: 'should',
    title: 'Every list query the spec allows — each optional member absent in turn, empty values, ids, users, custom fields, pipelines and pages that do not exist — is answered without a 5xx',
    reading: 'Robustness: each query is one a client may send (§4.2 names the parameters; page, limit and order are the live service\'s, docs/field-notes.md); what it answers is judged by the meaning rules, so here a 2xx and a 4xx both pass and only a 5xx, a reset or a hang fails. Every named query is sent on each of the four lists on every run (all members, each left out in turn, each alone, none; every edge filter alone; a page past the end, page without limit, an empty query), then generated ones. Values come from the records the list shows.',
    covers: ['4.2/filter', '4.2/filter[id]', '4.2/filter[name]', '4.2/filter[responsible_user_id]', '4.2/filter[created_by]', '4.2/filter[created_at]', '4.2/filter[custom_fields_values]', '4.2/query', '4.2/api/v4/leads filter[price]', '4.2/api/v4/leads filter[statuses]', '4.2/api/v4/leads filter[pipeline_id]', '4.2/api/v4/leads filter[closed_at]', '4.2/api/v4/customers filter[next_price]', '4.2/api/v4/customers filter[next_date]', '4.2/api/v4/customers filter[status_id]'],
  },
  {
    setup: async (t) => {
      const bearer = await filterBearer(t);
      return { bearer, us: await visibleUniverses(t, bearer) };
    },
    named: (t, { us }) => LISTS.flatMap((list, k) => namedListQueries(us.get(list)!.src, t.seed + k)),
    cases: (_t, { us }) => fc.constantFrom(...LISTS).chain((list) => listQueryArb(us.get(list)!.src)),
    send: (t, c, { bearer }) => t.send(listRequest(t.target, bearer, c.list, c.query)),
    expect: [noServerError],
    label: (c) => `${c.list} ${c.label}`,
    what: 'valid queries answered',
  },
));

export default defineGroup({
  heading: 'Filter kinds and their shape',
  rules: [
shapes,
 incompleteStatuses,
 robustness,
 validSpace,
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
