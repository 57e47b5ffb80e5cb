/**
 * §4.2 List filtering: Not stated or not shown.
 *
 * §4.2 List filtering, what the spec leaves open: recorded, not judged (`info`). Range bounds inclusive or exclusive,
 * name matched exactly or as a substring, `query` on customers, several values for checkbox and date fields, the
 * list answer's shape and page limit (the spec says "Response body of list endpoints: not shown"), and what a list
 * does while the paid filter feature is off.
 */
import {
  apiToken, bodyObserved, defineGroup, encodeFilter, exchangeRule, featureOffObserved, featureOffProbe, filterBearer, listAnswerObserved, listRequest, nameMatchObserved, nameMatchProbe, pageCountObserved, queryOnCustomersProbe, queryOnListObserved, rangeBoundsObserved, rangeBoundsProbe, readsLists, scenarioRule, step, sweepRule, switchFilterFeature, twoValuesObserved, twoValuesProbe, type TwoValuesSeen, visibleUniverses,
} from '../kit.js';
import type { Lists } from './support.js';

const rangeBounds = readsLists(exchangeRule(
  {
    id: 'lists.filter.info.range-bounds', title: 'Whether range bounds are inclusive: filter[created_at][from]=X&[to]=X for a record created at X',
    reading: '§4.2 says "from/to is allowed" without saying whether the bounds belong to the range. The meaning rules accept both readings.',
    covers: ['4.2/Range'],
  },
  { setup: filterBearer, send: (t, bearer) => rangeBoundsProbe(t, bearer), expect: [rangeBoundsObserved] },
));

const nameMatch = readsLists(exchangeRule(
  {
    id: 'lists.filter.info.name-match', title: 'How filter[name] matches: the exact name, a part of it, another letter case',
    reading: '§4.2 says only "By name". The meaning rules pass a substring match and require an exact name to be found.',
    covers: ['4.2/filter[name]'],
  },
  { setup: filterBearer, send: (t, bearer) => nameMatchProbe(t, bearer), expect: [nameMatchObserved] },
));

const queryCustomers = readsLists(exchangeRule(
  {
    id: 'lists.filter.info.query-on-customers', title: 'What /api/v4/customers does with query, which §4.2 lists for deals, contacts and companies only',
    reading: '§4.2: query "exists on deals, contacts and companies only". Whether customers ignore it, refuse it or search is not said.',
    covers: ['4.2/query'],
  },
  { setup: filterBearer, send: (t, bearer) => queryOnCustomersProbe(t, bearer), expect: [queryOnListObserved] },
));

const CF_TYPES = ['checkbox', 'date', 'date_time'] as const;

const multipleCheckboxDate = readsLists(sweepRule<typeof CF_TYPES[number], TwoValuesSeen, Lists>(
  {
    id: 'lists.filter.info.checkbox-date-multiple', title: 'Whether checkbox and date custom fields take several values (§4.2: "not stated")',
    reading: '§4.2\'s custom-field table says "not stated" for multiple values of checkbox, date and date_time fields. Reported: the answer to [1, 0] for a checkbox and to two dates.',
    covers: ['4.2/checkbox', '4.2/date, date_time'],
  },
  {
    setup: async (t) => {
      const bearer = await filterBearer(t);
      return { bearer, us: await visibleUniverses(t, bearer) };
    },
    named: CF_TYPES,
    send: (t, type, { bearer, us }) => twoValuesProbe(t, bearer, us, type),
    expect: (_t, type) => [twoValuesObserved(type)],
    what: 'field types probed',
  },
));

const responseShape = scenarioRule<string>(
  {
    id: 'lists.response.shape', title: 'The list answer: media type, HAL keys, the page limit and the answer to a filter that matches nothing',
    reading: '§4.2: "Response body of list endpoints: not shown". docs/field-notes.md: HAL JSON with _page, _links and _embedded.<list>, limit at most 250, 204 with an empty body when nothing matches.',
    covers: ['4.2/filter'],
  },
  {
    setup: filterBearer,
    steps: [
      step('', (t, bearer) => t.send(listRequest(t.target, bearer, 'leads', 'limit=2')), [listAnswerObserved]),
      step('', (t, bearer) => t.send(listRequest(t.target, bearer, 'contacts', 'limit=500')), [pageCountObserved('limit=500', 'contacts')]),
      step('', (t, bearer) => t.send(listRequest(t.target, bearer, 'leads', encodeFilter([{ kind: 'values', field: 'id', values: [1] }]))), [bodyObserved('nothing matches')]),
    ],
  },
);

const featureOff = exchangeRule(
  {
    id: 'lists.filter.info.feature-off', needs: ['access-token', 'operator'], exclusive: true,
    title: 'What a filtered list answers while the paid filter feature is off (switched through the control API, else by the operator)',
    reading: '§1 item 5: filtering is "an optional paid function ... enabled in the account settings"; what a list does when it is off is not said (community reports: the filter is silently ignored). The feature is switched back on afterwards.',
    covers: ['4.2/filter'],
  },
  {
    setup: async (t) => {
      const bearer = await apiToken(t);
      await switchFilterFeature(t, false);
      return bearer;
    },
    send: (t, bearer) => featureOffProbe(t, bearer),
    expect: [featureOffObserved],
    teardown: (t) => switchFilterFeature(t, true),
  },
);

export default defineGroup({
  heading: 'Not stated or not shown',
  defaults: { level: 'info' },
  rules: [
rangeBounds,
 nameMatch,
 queryCustomers,
 multipleCheckboxDate,
 responseShape,
 featureOff,
  ],
});
