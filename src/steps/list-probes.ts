/**
 * The observations of the §4.2 rules that take several requests for one judgement, judged by src/checks/list-probes.ts:
 * an incomplete filter[statuses] element (its answer, then the whole list it selected), and the probes of the `info`
 * rules that record what §4.2 leaves open. Values come from the records the target shows without a filter.
 */
import type { FeatureOffSeen, IncompleteSeen, NameMatchSeen, QueryOnListSeen, RangeBoundsSeen, TwoValuesSeen } from '../checks/list-probes.js';
import type { RuleContext } from '../model/context.js';
import { accountFlagsRequest, encodeFilter, listRequest, type Clause } from '../protocol/filters.js';
import { BRACKETS } from '../../generators/filters.js';
import { visibleUniverses, type Universe } from './filter-universe.js';
import { fetchAll, PAGE_LIMIT } from './lists.js';
import { operatorStep } from './live-operator.js';

/** An incomplete element sent on one page, and when it is accepted the whole list it selects (to tell ignored from half-applied). */
export async function incompleteStatusesProbe(t: RuleContext, bearer: string, query: string): Promise<IncompleteSeen> {
  const res = await t.send(listRequest(t.target, bearer, 'leads', `${query}&limit=1`));
  if (res.status < 200 || res.status >= 300) return { res };
  return { res, all: await fetchAll(t, bearer, 'leads', query) };
}

/** filter[created_at][from]=X&[to]=X for a lead created at X. */
export async function rangeBoundsProbe(t: RuleContext, bearer: string): Promise<RangeBoundsSeen> {
  const u = (await visibleUniverses(t, bearer, ['leads'])).get('leads')!;
  const r = u.records.find((x) => typeof x.created_at === 'number');
  if (!r || typeof r.created_at !== 'number') return undefined;
  const clause: Clause = { kind: 'range', field: 'created_at', from: r.created_at, to: r.created_at };
  return { id: r.id, fetch: await fetchAll(t, bearer, 'leads', encodeFilter([clause])) };
}

/** filter[name] on contacts with a name of six characters or more: whole, without its first and last, in another case. */
export async function nameMatchProbe(t: RuleContext, bearer: string): Promise<NameMatchSeen> {
  const u = (await visibleUniverses(t, bearer, ['contacts'])).get('contacts')!;
  const r = u.records.find((x) => typeof x.name === 'string' && x.name.length >= 6);
  if (!r || typeof r.name !== 'string') return undefined;
  const full = r.name;
  const byName = (value: string) => fetchAll(t, bearer, 'contacts', encodeFilter([{ kind: 'values', field: 'name', values: [value] }]));
  const exact = await byName(full);
  const part = await byName(full.slice(1, -1));
  const cased = await byName(full.toUpperCase() === full ? full.toLowerCase() : full.toUpperCase());
  return { id: r.id, exact, part, cased };
}

/** query=<a customer's name> on /api/v4/customers (a list §4.2 does not give query), one page of 250. */
export async function queryOnCustomersProbe(t: RuleContext, bearer: string): Promise<QueryOnListSeen> {
  const u = (await visibleUniverses(t, bearer, ['customers'])).get('customers')!;
  const r = u.records.find((x) => typeof x.name === 'string' && x.name !== '');
  const name = typeof r?.name === 'string' ? r.name : 'zzzz';
  const res = await t.send(listRequest(t.target, bearer, 'customers', `query=${encodeURIComponent(name)}&limit=${PAGE_LIMIT}`));
  return { res, list: 'customers', seen: Math.min(PAGE_LIMIT, u.ids.size) };
}

/** Two values of the first custom field of `type` any list shows ([1, 0] for a checkbox), together and each alone. */
export async function twoValuesProbe(t: RuleContext, bearer: string, us: ReadonlyMap<string, Universe>, type: 'checkbox' | 'date' | 'date_time'): Promise<TwoValuesSeen> {
  const hit = [...us.values()].flatMap((u) => u.src.cfFields.filter((f) => f.type === type).map((f) => ({ u, f })))[0];
  if (!hit) return undefined;
  const values = type === 'checkbox' ? ['1', '0'] : hit.f.values.slice(0, 2);
  const both = await fetchAll(t, bearer, hit.u.list, encodeFilter([{ kind: 'cf-values', fieldId: hit.f.id, fieldType: type, values }], BRACKETS));
  const singles = await Promise.all(values.map((v) => fetchAll(t, bearer, hit.u.list, encodeFilter([{ kind: 'cf-values', fieldId: hit.f.id, fieldType: type, values: [v] }], BRACKETS))));
  return { both, singles };
}

/** Switches the paid filter feature (§1 item 5) through the control API, else by the operator. */
export async function switchFilterFeature(t: RuleContext, enabled: boolean): Promise<void> {
  await operatorStep(t, {
    instruction: `switch the API filter feature ${enabled ? 'back on' : 'off'} in the account settings`,
    control: async () => { await t.control.call('POST', '/lists/filter-feature', { enabled }); },
  });
}

/** With the feature off: the account's flag, then a filter that matches nothing (id 1) on one page of leads. */
export async function featureOffProbe(t: RuleContext, bearer: string): Promise<FeatureOffSeen> {
  const flags = await t.send(accountFlagsRequest(t.target, bearer));
  const list = await t.send(listRequest(t.target, bearer, 'leads', `${encodeFilter([{ kind: 'values', field: 'id', values: [1] }])}&limit=1`));
  return { flags, list };
}
