/**
 * §4.2 List filtering: Access follows the user's rights.
 *
 * A token granted by a user who may see only the deals he is responsible for (§1 item 3: "Tokens carry the rights of
 * the user who granted access"; §5.1 item 2: "calls beyond those rights are refused") lists his deals and no other,
 * whatever it asks: the whole list across its pages, a filter[id] naming another user's deals, a filter or a search
 * that would select them.
 */
import { allOwnDeals, apiToken, dealsByUser, defineGroup, type DealsByUser, encodeFilter, exactlyOwnDeals, fetchAll, listRequest, noneBeyondRights, refreshTokens, tokensOf, ownDealsFound, RIGHTS_PAGE_LIMIT, scenarioRule, step, withinRights } from '../kit.js';

const NEEDS = ['restricted-token', 'access-token'] as const;
const SOURCES = 'His deals and other users\' deals are read from the control API\'s ground truth, else from the list as the administrator\'s token (the access-token need) shows it.';

const ownLeadsOnly = scenarioRule<DealsByUser>(
  {
    id: 'lists.rights.own-leads-only', needs: [...NEEDS],
    title: 'A user who may see only his own deals lists exactly those, on every page',
    reading: `§1 item 3, §4.2 "Access follows the user's rights", §5.1 item 2. GET /api/v4/leads with his token, ${RIGHTS_PAGE_LIMIT} a page, every page by _links.next: each deal's responsible_user_id is his, and the deals are exactly his (none missing: his rights include them). ${SOURCES}`,
  },
  {
    setup: dealsByUser,
    steps: [
      step('his list', (t, d) => fetchAll(t, d.token, 'leads', '', { limit: RIGHTS_PAGE_LIMIT }), (_t, d) => [allOwnDeals(d.userId), exactlyOwnDeals(d.own, d.source)]),
    ],
  },
);

const filterId = scenarioRule<DealsByUser>(
  {
    id: 'lists.rights.filter-id', needs: [...NEEDS],
    title: 'filter[id] naming another user\'s deals gives a user who may see only his own none of them, and his own when it names them',
    reading: `§4.2 "Access follows the user's rights" (filter[id] is no way around them), §5.1 item 2. The administrator's token asks the same request first (its answer is not judged: it would fill an answer cache that forgets whose token asked). 204, a page without them or a 403 refusal pass; a refusal of the valid filter with another 4xx is non_strict. A filter[id] naming his own deals must find them. ${SOURCES}`,
  },
  {
    setup: async (t) => {
      const d = await dealsByUser(t);
      await t.send(listRequest(t.target, await apiToken(t), 'leads', idsQuery(d.others.map((r) => r.id))));
      return d;
    },
    steps: [
      step('another user\'s deals by id', (t, d) => t.send(listRequest(t.target, d.token, 'leads', idsQuery(d.others.map((r) => r.id)))), (_t, d) => [noneBeyondRights(d.others.map((r) => r.id))]),
      step('his own deal by id', (t, d) => t.send(listRequest(t.target, d.token, 'leads', idsQuery(ownSample(d)))), (_t, d) => ownDealsFound(ownSample(d), `user ${d.userId}'s deals in ${d.source}`)),
    ],
  },
);

const filtersWithinRights = scenarioRule<DealsByUser>(
  {
    id: 'lists.rights.filters-within-rights', needs: [...NEEDS],
    title: 'A filter or a search that selects other users\' deals gives a user who may see only his own nothing beyond them',
    reading: `§4.2 "Access follows the user's rights": filter[responsible_user_id] naming other users, and query with the name of another user's deal, return only his deals (204, his deals, or a 403 refusal, §5.1 item 2). A refusal with another 4xx is non_strict. ${SOURCES}`,
  },
  {
    setup: dealsByUser,
    steps: [
      step('filter[responsible_user_id] of other users', (t, d) => t.send(listRequest(t.target, d.token, 'leads', encodeFilter([{ kind: 'values', field: 'responsible_user_id', values: otherUsers(d) }]))),
        (_t, d) => [withinRights(d.userId, 'filter[responsible_user_id]')]),
      step('query with another user\'s deal name', (t, d) => t.send(listRequest(t.target, d.token, 'leads', `query=${encodeURIComponent(otherName(d))}`)),
        (_t, d) => [withinRights(d.userId, 'query')]),
    ],
  },
);

const refreshKeepsRights = scenarioRule<DealsByUser>(
  {
    id: 'lists.rights.refresh-keeps-rights', needs: [...NEEDS, 'restricted-refresh-token'],
    title: 'A token refreshed from a grant of a user who may see only his own deals carries his rights still',
    reading: `§1 item 3 "Tokens carry the rights of the user who granted access": a refresh (§3.1) makes a token of the same grant, so of the same user. A fresh grant of his is refreshed once; the new access token lists his deals, ${RIGHTS_PAGE_LIMIT} a page, exactly as his list must (lists.rights.own-leads-only). ${SOURCES}`,
  },
  {
    setup: dealsByUser,
    steps: [
      step('his refreshed token\'s list', async (t) => {
        const { refreshToken } = await t.need('restricted-refresh-token');
        const { access_token } = tokensOf(await refreshTokens(t, refreshToken), 'the refresh of the restricted user\'s grant');
        t.masker.add(access_token);
        return fetchAll(t, access_token, 'leads', '', { limit: RIGHTS_PAGE_LIMIT });
      }, (_t, d) => [allOwnDeals(d.userId), exactlyOwnDeals(d.own, d.source)]),
    ],
  },
);

/** The ids as filter[id] in the kit's default encoding: `filter[id]=5` for one, `filter[id][0]=5&filter[id][1]=6` for more. */
const idsQuery = (ids: readonly number[]): string => encodeFilter([{ kind: 'values', field: 'id', values: ids }]);

/** Up to two of his deals (none when he has none, or when the administrator's list was read only in part). */
const ownSample = (d: DealsByUser): number[] => [...(d.own ?? [])].slice(0, 2);

/** The name of another user's deal (the search string); the deals read all show one (their `name` is a string). */
const otherName = (d: DealsByUser): string => String(d.others.find((r) => typeof r.name === 'string' && r.name !== '')?.name ?? d.others[0]!.id);

/** The users responsible for the other deals (at most three). */
const otherUsers = (d: DealsByUser): number[] => [...new Set(d.others.map((r) => r.responsible_user_id as number))].slice(0, 3);

export default defineGroup({
  heading: 'Access follows the user\'s rights',
  defaults: { level: 'must' },
  rules: [ownLeadsOnly, filterId, filtersWithinRights, refreshKeepsRights],
});
