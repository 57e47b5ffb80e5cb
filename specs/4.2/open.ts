/**
 * §4.2 List filtering: Not stated or not shown.
 *
 * §4.2 List filtering, what the spec leaves open: recorded, not judged (`info`). Range bounds inclusive or exclusive,
 * name matched exactly or as a substring, `query` on customers, several values for checkbox and date fields, the
 * list answer's shape and page limit (the spec says "Response body of list endpoints: not shown"), and what a list
 * does while the paid filter feature is off.
 */
import {
  accountFlagsRequest, apiToken, arrayAt, BRACKETS, type Clause, defineGroup, encodeFilter, fetchAll, filterBearer, type Finding, jsonAt, listRequest, mediaType, observed, operatorStep, parseJson, readingLists, rule, visibleUniverses,
} from '../kit.js';
import { outcomeOf } from './support.js';

const rangeBounds = rule(
  {
    id: 'lists.filter.info.range-bounds', title: 'Whether range bounds are inclusive: filter[created_at][from]=X&[to]=X for a record created at X',
    reading: '§4.2 says "from/to is allowed" without saying whether the bounds belong to the range. The meaning rules accept both readings.',
    covers: ['4.2/Range'],
  },
  readingLists(async (t) => {
    const bearer = await filterBearer(t);
    const u = (await visibleUniverses(t, bearer, ['leads'])).get('leads')!;
    const r = u.records.find((x) => typeof x.created_at === 'number');
    if (!r) return t.outcome([observed('range bounds', 'no lead shows created_at: nothing to probe with')]);
    const x = r.created_at as number;
    const clause: Clause = { kind: 'range', field: 'created_at', from: x, to: x };
    const got = await fetchAll(t, bearer, 'leads', encodeFilter([clause]));
    const detail = !got.ok ? `from=to=X answered ${got.finding.detail}` : got.ids.has(r.id) ? 'inclusive: a record at exactly the bound is returned' : 'exclusive: a record at exactly the bound is not returned';
    return t.outcome([observed('range bounds', detail)]);
  }),
);

const nameMatch = rule(
  {
    id: 'lists.filter.info.name-match', title: 'How filter[name] matches: the exact name, a part of it, another letter case',
    reading: '§4.2 says only "By name". The meaning rules pass a substring match and require an exact name to be found.',
    covers: ['4.2/filter[name]'],
  },
  readingLists(async (t) => {
    const bearer = await filterBearer(t);
    const u = (await visibleUniverses(t, bearer, ['contacts'])).get('contacts')!;
    const r = u.records.find((x) => typeof x.name === 'string' && (x.name as string).length >= 6);
    if (!r) return t.outcome([observed('name match', 'no contact shows a name of 6 characters or more')]);
    const full = r.name as string;
    const probe = async (value: string) => {
      const f = await fetchAll(t, bearer, 'contacts', encodeFilter([{ kind: 'values', field: 'name', values: [value] }]));
      return f.ok ? (f.ids.has(r.id) ? 'found' : 'not found') : `answered ${f.finding.detail}`;
    };
    const exact = await probe(full);
    const part = await probe(full.slice(1, -1));
    const cased = await probe(full.toUpperCase() === full ? full.toLowerCase() : full.toUpperCase());
    return t.outcome([observed('name match', `exact name: ${exact}; a substring: ${part}; other letter case: ${cased}`)]);
  }),
);

const queryCustomers = rule(
  {
    id: 'lists.filter.info.query-on-customers', title: 'What /api/v4/customers does with query, which §4.2 lists for deals, contacts and companies only',
    reading: '§4.2: query "exists on deals, contacts and companies only". Whether customers ignore it, refuse it or search is not said.',
    covers: ['4.2/query'],
  },
  readingLists(async (t) => {
    const bearer = await filterBearer(t);
    const u = (await visibleUniverses(t, bearer, ['customers'])).get('customers')!;
    const r = u.records.find((x) => typeof x.name === 'string' && x.name !== '');
    const res = await t.send(listRequest(t.target, bearer, 'customers', `query=${encodeURIComponent((r?.name as string | undefined) ?? 'zzzz')}&limit=250`));
    const count = (arrayAt(res, '_embedded.customers') ?? []).length;
    const seen = Math.min(250, u.ids.size);
    const detail = res.status >= 300 ? `refused with ${res.status}` : res.status === 204 ? 'answered 204: searched, nothing found' : count >= seen ? `ignored: ${count} record(s), as without query` : `searched: ${count} record(s) of ${seen}`;
    return t.outcome([observed('query on customers', detail)]);
  }),
);

const multipleCheckboxDate = rule(
  {
    id: 'lists.filter.info.checkbox-date-multiple', title: 'Whether checkbox and date custom fields take several values (§4.2: "not stated")',
    reading: '§4.2\'s custom-field table says "not stated" for multiple values of checkbox, date and date_time fields. Reported: the answer to [1, 0] for a checkbox and to two dates.',
    covers: ['4.2/checkbox', '4.2/date, date_time'],
  },
  readingLists(async (t) => {
    const bearer = await filterBearer(t);
    const us = await visibleUniverses(t, bearer);
    const findings: Finding[] = [];
    for (const type of ['checkbox', 'date', 'date_time'] as const) {
      const hit = [...us.values()].flatMap((u) => u.src.cfFields.filter((f) => f.type === type).map((f) => ({ u, f })))[0];
      if (!hit) { findings.push(observed(type, 'no record shows such a field')); continue; }
      const values = type === 'checkbox' ? ['1', '0'] : hit.f.values.slice(0, 2);
      const both = await fetchAll(t, bearer, hit.u.list, encodeFilter([{ kind: 'cf-values', fieldId: hit.f.id, fieldType: type, values }], BRACKETS));
      const singles = await Promise.all(values.map((v) => fetchAll(t, bearer, hit.u.list, encodeFilter([{ kind: 'cf-values', fieldId: hit.f.id, fieldType: type, values: [v] }], BRACKETS))));
      const unionSize = new Set(singles.flatMap((s) => [...s.ids])).size;
      findings.push(observed(type, !both.ok ? `two values: ${both.finding.detail}` : both.ids.size === unionSize ? `two values are alternatives (${both.ids.size} = union of the singles)` : `two values gave ${outcomeOf(both)}, the singles' union ${unionSize}`));
    }
    return t.outcome(findings);
  }),
);

const responseShape = rule(
  {
    id: 'lists.response.shape', title: 'The list answer: media type, HAL keys, the page limit and the answer to a filter that matches nothing',
    reading: '§4.2: "Response body of list endpoints: not shown". docs/field-notes.md: HAL JSON with _page, _links and _embedded.<list>, limit at most 250, 204 with an empty body when nothing matches.',
    covers: ['4.2/filter'],
  },
  async (t) => {
    const bearer = await filterBearer(t);
    const res = await t.send(listRequest(t.target, bearer, 'leads', 'limit=2'));
    const body = parseJson(res) as Record<string, unknown> | undefined;
    const keys = body && typeof body === 'object' ? Object.keys(body).join(', ') : 'no JSON body';
    const big = await t.send(listRequest(t.target, bearer, 'contacts', 'limit=500'));
    const bigCount = (arrayAt(big, '_embedded.contacts') ?? []).length;
    const none = await t.send(listRequest(t.target, bearer, 'leads', encodeFilter([{ kind: 'values', field: 'id', values: [1] }])));
    return t.outcome([
      observed('media type', `${res.status} ${mediaType(res) || 'no Content-Type'}; keys: ${keys}`),
      observed('limit=500', `${big.status}, ${bigCount} record(s)`),
      observed('nothing matches', `${none.status}${none.text ? `, body of ${none.text.length} characters` : ', empty body'}`),
    ]);
  },
);

const featureOff = rule(
  {
    id: 'lists.filter.info.feature-off', needs: ['access-token', 'operator'], exclusive: true,
    title: 'What a filtered list answers while the paid filter feature is off (switched through the control API, else by the operator)',
    reading: '§1 item 5: filtering is "an optional paid function ... enabled in the account settings"; what a list does when it is off is not said (community reports: the filter is silently ignored). The feature is switched back on afterwards.',
    covers: ['4.2/filter'],
  },
  async (t) => {
    const bearer = await apiToken(t);
    const probe = encodeFilter([{ kind: 'values', field: 'id', values: [1] }]);
    await operatorStep(t, {
      instruction: 'switch the API filter feature off in the account settings',
      control: async () => { await t.control.call('POST', '/lists/filter-feature', { enabled: false }); },
    });
    try {
      const flags = await t.send(accountFlagsRequest(t.target, bearer));
      const flag = jsonAt(flags, 'is_api_filter_enabled');
      const res = await t.send(listRequest(t.target, bearer, 'leads', `${probe}&limit=1`));
      const what = res.status === 204 ? 'applied anyway (nothing matches id 1)' : res.status === 200 ? 'ignored (records returned for a filter that matches none)' : `refused with ${res.status}`;
      return t.outcome([observed('feature off', `account says is_api_filter_enabled=${JSON.stringify(flag)}; the filter is ${what}`)]);
    } finally {
      await operatorStep(t, {
        instruction: 'switch the API filter feature back on in the account settings',
        control: async () => { await t.control.call('POST', '/lists/filter-feature', { enabled: true }); },
      });
    }
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
