/**
 * §4.2 List filtering, robustness over the valid query space: every optional member of a list query (filter, page,
 * limit, order, query) present or absent, empty values, and references to things that do not exist (ids, users,
 * custom fields, pipelines, statuses, another list's parameters, a page past the end). The spec allows each of these
 * queries, or says nothing against them; whatever the answer, it is not a server error. Read-only.
 */
import fc from 'fast-check';
import {
  defineSpec, filterBearer, type HttpResponse, listQueryArb, type ListQuery, listRequest, LISTS, namedListQueries, noServerError, readsLists, sweepRule, type Universe, visibleUniverses,
} from './kit.js';

interface Fixture {
  readonly bearer: string;
  readonly us: Map<(typeof LISTS)[number], Universe>;
}

export default defineSpec({
  section: '4.2',
  title: 'List filtering: robustness over the valid query space',
  level: 'should',
  rules: [
    readsLists(sweepRule<ListQuery, HttpResponse, Fixture>(
      { id: 'lists.query.valid-no-server-error', requires: [], needs: ['access-token'],
        title: 'Every list query the spec allows — each optional member absent in turn, empty values, ids, users, custom fields, pipelines and pages that do not exist — is answered without a 5xx',
        reading: 'Robustness: each query is one a client may send (§4.2 names the parameters; page, limit and order are the live service\'s, docs/field-notes.md); what it answers is judged by the meaning rules, so here a 2xx and a 4xx both pass and only a 5xx, a reset or a hang fails. Every named query is sent on each of the four lists on every run (all members, each left out in turn, each alone, none; every edge filter alone; a page past the end, page without limit, an empty query), then generated ones. Values come from the records the list shows.',
        covers: ['4.2/filter', '4.2/filter[id]', '4.2/filter[name]', '4.2/filter[responsible_user_id]', '4.2/filter[created_by]', '4.2/filter[created_at]', '4.2/filter[custom_fields_values]', '4.2/query', '4.2/api/v4/leads filter[price]', '4.2/api/v4/leads filter[statuses]', '4.2/api/v4/leads filter[pipeline_id]', '4.2/api/v4/leads filter[closed_at]', '4.2/api/v4/customers filter[next_price]', '4.2/api/v4/customers filter[next_date]', '4.2/api/v4/customers filter[status_id]'] },
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
    )),
  ],
});
