/**
 * §4.2 List filtering, meaning with an oracle: the control API gives the ground truth (every record of every list), so
 * each filter is judged both ways: every returned record satisfies it, and every ground-truth record that satisfies it
 * is returned, across all pages. One rule per group of parameters (common, per list, custom fields), each sweeping
 * every parameter of its group on every run, then generated filters combining several.
 */
import fc from 'fast-check';
import {
  defineSpec, encodingArb, filterBearer, filterOf, type HttpResponse, judgeFilter, listArb, type ListName, LISTS, type RuleDraft, sweep, type SweepCase, sweepRule, truthUniverses, type Universe,
} from './kit.js';

type Group = 'common' | 'per-list' | 'custom-fields';

const READING = 'Ground truth from the control API (GET /_control/lists/<list>). A returned record must satisfy the filter on its ground-truth fields under the lenient reading (ranges inclusive, names and text values as a case-insensitive substring, an unset checkbox as 0); a record that satisfies it under the strict reading (exclusive ranges, exact values) must be returned. Several parameters are read together (AND); an answer that holds exactly as alternatives (OR) is recorded, not failed, since §4.2 does not say how parameters combine (K20). A range with one bound refused is recorded (K18). Pages are followed through _links.next.';

interface Oracle {
  readonly bearer: string;
  readonly us: Map<ListName, Universe>;
}

function oracleRule(id: string, title: string, group: Group, lists: readonly ListName[], covers: readonly string[]): RuleDraft {
  // Generated filters: two or three parameters of the group, or of the group and the common ones, in any encoding.
  const groups: Group[] = group === 'common' ? ['common'] : ['common', group];
  return sweepRule<{ u: Universe; c: SweepCase }, HttpResponse, Oracle>(
    { id, requires: ['control'], needs: ['ground-truth'], title, reading: READING, covers },
    {
      setup: async (t) => ({ bearer: await filterBearer(t), us: await truthUniverses(t, lists) }),
      named: (t, { us }) => lists.flatMap((list, k) => sweep(us.get(list)!.src, t.seed + k, [group]).map((c) => ({ u: us.get(list)!, c }))),
      cases: (_t, { us }) => listArb(us, lists).chain((u: Universe) => fc.record({ clauses: filterOf(u.src, groups, 3, 2), encoding: encodingArb })
        .map(({ clauses, encoding }) => ({ u, c: { label: 'generated filter', clauses, encoding } }))),
      judge: (t, { u, c }, { bearer }) => judgeFilter(t, bearer, u, c),
      what: `every ${group} parameter`,
    },
  );
}

export default defineSpec({
  section: '4.2',
  title: 'List filtering: meaning against the ground truth',
  level: 'must',
  rules: [
    oracleRule('lists.filter.oracle.common', 'Every common filter parameter returns exactly the ground-truth records that satisfy it, on all four lists', 'common', LISTS,
      ['4.2/filter', '4.2/filter[id]', '4.2/filter[name]', '4.2/filter[created_by]', '4.2/filter[updated_by]', '4.2/filter[responsible_user_id]', '4.2/filter[created_at]', '4.2/filter[updated_at]', '4.2/filter[closest_task_at]', '4.2/Single', '4.2/Multiple', '4.2/Range']),
    oracleRule('lists.filter.oracle.per-list', 'The deal and customer parameters (price, statuses, pipeline_id, closed_at, next_price, next_date, status_id) return exactly the matching ground-truth records', 'per-list', ['leads', 'customers'],
      ['4.2/api/v4/leads filter[price]', '4.2/api/v4/leads filter[statuses]', '4.2/api/v4/leads filter[pipeline_id]', '4.2/api/v4/leads filter[closed_at]', '4.2/api/v4/customers filter[next_price]', '4.2/api/v4/customers filter[next_date]', '4.2/api/v4/customers filter[status_id]', '4.2/Statuses (deals)', '4.2/Range', '4.2/Multiple']),
    oracleRule('lists.filter.oracle.custom-fields', 'Custom-field filters of every type return exactly the matching ground-truth records', 'custom-fields', LISTS,
      ['4.2/filter[custom_fields_values]', '4.2/Custom fields', '4.2/numeric', '4.2/text, url, textarea, streetaddress', '4.2/select, multiselect, radiobutton', '4.2/checkbox', '4.2/date, date_time']),
  ],
});
