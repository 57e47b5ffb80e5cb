/**
 * §4.2 List filtering: Access follows the user's rights.
 *
 * A token granted by a user who may see only the records he is responsible for (§1 item 3: "Tokens carry the rights of
 * the user who granted access"; §5.1 item 2: "calls beyond those rights are refused") lists his records and no other,
 * in each of the four lists (deals, contacts, companies, customers: issue 39, a server that narrows deals only lets the
 * others through), whatever it asks: the whole list across its pages, a filter[id] naming another user's records, a
 * filter or a search that would select them.
 */
import {
  allOwnDeals, apiToken, labelled, defineGroup, encodeFilter, exactlyOwnDeals, fetchAll, type DealsByUser, type Finding, type Judge, type ListName, LISTS, listRequest, noneBeyondRights, ownDealsFound, QUERY_LISTS, recordsByList, type RecordsByList, refreshTokens, RIGHTS_PAGE_LIMIT, type RuleContext, scenarioRule, type Step, tokensOf, withinRights,
} from '../kit.js';

const NEEDS = ['restricted-token', 'access-token'] as const;
const SOURCES = 'His records and other users\' records are read from the control API\'s ground truth, else from each list as the administrator\'s token (the access-token need) shows it.';

/**
 * One step per list, the lists side by side (one list's answers do not wait on another's): `observe` reads `list` with
 * what the rule knows of it, `expect` judges the read; each finding names its list.
 */
function eachList<S>(label: string, observe: (t: RuleContext, d: DealsByUser, list: ListName) => Promise<S>, expect: (d: DealsByUser, list: ListName) => readonly Judge<S>[], lists: readonly ListName[] = LISTS): Step<RecordsByList> {
  return {
    async run(t, f) {
      const seen = await Promise.all(lists.map((list) => observe(t, f[list], list)));
      return lists.flatMap((list, i): Finding[] => t.check(seen[i]!, labelled(`${label} (${list})`, expect(f[list], list))));
    },
  };
}

const ownLeadsOnly = scenarioRule<RecordsByList>(
  {
    id: 'lists.rights.own-leads-only', needs: [...NEEDS],
    title: 'A user who may see only his own records lists exactly those, in each of the four lists, on every page',
    reading: `§1 item 3, §4.2 "Access follows the user's rights", §5.1 item 2. GET /api/v4/<list> with his token for each of the four lists, ${RIGHTS_PAGE_LIMIT} a page, every page by _links.next: each record's responsible_user_id is his, and the records are exactly his (none missing: his rights include them). ${SOURCES}`,
  },
  {
    setup: recordsByList,
    steps: [
      eachList('his list', (t, d, list) => fetchAll(t, d.token, list, '', { limit: RIGHTS_PAGE_LIMIT }), (d) => [allOwnDeals(d.userId), exactlyOwnDeals(d.own, d.source)]),
    ],
  },
);

const filterId = scenarioRule<RecordsByList>(
  {
    id: 'lists.rights.filter-id', needs: [...NEEDS],
    title: 'filter[id] naming another user\'s records gives a user who may see only his own none of them, and his own when it names them, in each of the four lists',
    reading: `§4.2 "Access follows the user's rights" (filter[id] is no way around them), §5.1 item 2, in each of the four lists. The administrator's token asks the same request first (its answer is not judged: it would fill an answer cache that forgets whose token asked). 204, a page without them or a 403 refusal pass; a refusal of the valid filter with another 4xx is non_strict. A filter[id] naming his own records must find them. ${SOURCES}`,
  },
  {
    setup: async (t) => {
      const d = await recordsByList(t);
      const admin = await apiToken(t);
      await Promise.all(LISTS.map((list) => t.send(listRequest(t.target, admin, list, idsQuery(d[list].others.map((r) => r.id))))));
      return d;
    },
    steps: [
      eachList('another user\'s records by id', (t, d, list) => t.send(listRequest(t.target, d.token, list, idsQuery(d.others.map((r) => r.id)))), (d) => [noneBeyondRights(d.others.map((r) => r.id))]),
      eachList('his own record by id', (t, d, list) => t.send(listRequest(t.target, d.token, list, idsQuery(ownSample(d)))), (d) => ownDealsFound(ownSample(d), `user ${d.userId}'s records in ${d.source}`)),
    ],
  },
);

const filtersWithinRights = scenarioRule<RecordsByList>(
  {
    id: 'lists.rights.filters-within-rights', needs: [...NEEDS],
    title: 'A filter or a search that selects other users\' records gives a user who may see only his own nothing beyond them, in each of the four lists',
    reading: `§4.2 "Access follows the user's rights": filter[responsible_user_id] naming other users (each of the four lists), and query with the name of another user's record (deals, contacts and companies: §4.2 gives customers no query), return only his records (204, his records, or a 403 refusal, §5.1 item 2). A refusal with another 4xx is non_strict. ${SOURCES}`,
  },
  {
    setup: recordsByList,
    steps: [
      eachList('filter[responsible_user_id] of other users', (t, d, list) => t.send(listRequest(t.target, d.token, list, encodeFilter([{ kind: 'values', field: 'responsible_user_id', values: otherUsers(d) }]))),
        (d) => [withinRights(d.userId, 'filter[responsible_user_id]')]),
      eachList('query with another user\'s record name', (t, d, list) => t.send(listRequest(t.target, d.token, list, `query=${encodeURIComponent(otherName(d))}`)),
        (d) => [withinRights(d.userId, 'query')], QUERY_LISTS),
    ],
  },
);

const refreshKeepsRights = scenarioRule<RecordsByList>(
  {
    id: 'lists.rights.refresh-keeps-rights', needs: [...NEEDS, 'restricted-refresh-token'],
    title: 'A token refreshed from a grant of a user who may see only his own records carries his rights still, in each of the four lists',
    reading: `§1 item 3 "Tokens carry the rights of the user who granted access": a refresh (§3.1) makes a token of the same grant, so of the same user. A fresh grant of his is refreshed once; the new access token lists his records in each of the four lists, ${RIGHTS_PAGE_LIMIT} a page, exactly as his lists must (lists.rights.own-leads-only). ${SOURCES}`,
  },
  {
    setup: recordsByList,
    steps: [
      {
        async run(t, f) {
          const { refreshToken } = await t.need('restricted-refresh-token');
          const { access_token } = tokensOf(await refreshTokens(t, refreshToken), 'the refresh of the restricted user\'s grant');
          t.masker.add(access_token);
          return eachList('his refreshed token\'s list', (t2, _d, list) => fetchAll(t2, access_token, list, '', { limit: RIGHTS_PAGE_LIMIT }), (d) => [allOwnDeals(d.userId), exactlyOwnDeals(d.own, d.source)]).run(t, f);
        },
      },
    ],
  },
);

/** The ids as filter[id] in the kit's default encoding: `filter[id]=5` for one, `filter[id][0]=5&filter[id][1]=6` for more. */
const idsQuery = (ids: readonly number[]): string => encodeFilter([{ kind: 'values', field: 'id', values: ids }]);

/** Up to two of his records (none when he has none, or when the administrator's list was read only in part). */
const ownSample = (d: DealsByUser): number[] => [...(d.own ?? [])].slice(0, 2);

/** The name of another user's record (the search string); the records read all show one (their `name` is a string). */
const otherName = (d: DealsByUser): string => String(d.others.find((r) => typeof r.name === 'string' && r.name !== '')?.name ?? d.others[0]!.id);

/** The users responsible for the other records (at most three). */
const otherUsers = (d: DealsByUser): number[] => [...new Set(d.others.map((r) => r.responsible_user_id as number))].slice(0, 3);

export default defineGroup({
  heading: 'Access follows the user\'s rights',
  defaults: { level: 'must' },
  rules: [ownLeadsOnly, filterId, filtersWithinRights, refreshKeepsRights],
});
