/**
 * The fault switches of the list endpoints: filters, the search string and paging (./engine.ts, ./routes.ts), each
 * read here with `faults.isOn('<name>')` (test/faults/areas.test.ts checks it). ../faults.ts assembles every area's
 * table. Grouped by the statement they break, in the spec's order.
 */
import { defineFaults } from '../switches.js';

export const LISTS_FAULTS = defineFaults([
  // List filtering: filters, ranges, statuses, custom fields, the search string, paging (§4.2)
  { name: 'lists-percent-brackets-ignored', description: 'Query keys with percent-encoded brackets (filter%5Bid%5D…) are not decoded: such a filter is an unknown parameter and ignored.',
    caughtBy: ['lists.filter.meta.encodings'], verdict: 'non_strict' },
  { name: 'only-first-filter-applied', description: 'Only the first filter parameter of the query is applied; the others are ignored.',
    caughtBy: ['lists.filter.meta.intersection', 'lists.filter.meta.param-order'] },
  { name: 'next-link-drops-filter', description: 'The _links.next of a list drops the filter parameters.',
    caughtBy: ['lists.filter.meta.pages-join'] },
  { name: 'crash-on-non-numeric-range', description: 'A non-numeric range bound yields a 500.',
    caughtBy: ['lists.filter.no-server-error'] },
  { name: 'lists-query-latin1', description: 'List query values are decoded as Latin-1: a non-ASCII filter[name] or query value finds nothing.',
    caughtBy: ['lists.filter.non-ascii-name'] },
  { name: 'ignore-responsible-user-filter', description: 'filter[responsible_user_id] is ignored: the list answers as if it were not sent.',
    caughtBy: ['lists.filter.oracle.common', 'lists.filter.meta.consistent', 'lists.filter.meta.union'] },
  { name: 'range-upper-bound-ignored', description: 'The [to] bound of every range filter is ignored (only [from] applies).',
    caughtBy: ['lists.filter.oracle.common', 'lists.filter.oracle.per-list', 'lists.filter.meta.consistent', 'lists.filter.meta.range-narrowing'] },
  { name: 'lists-checkbox-zero-ignored', description: 'A checkbox custom-field filter with 0 is ignored: checked records come back too.',
    caughtBy: ['lists.filter.oracle.custom-fields'] },
  { name: 'bracket-array-as-single', description: 'Arrays sent as repeated `[]` keys are read as a single value (the last one), as a naive query parser does.',
    caughtBy: ['lists.filter.oracle.custom-fields', 'lists.filter.meta.union'] },
  { name: 'ignore-url-custom-fields', description: 'Custom-field filters on fields of type url are ignored.',
    caughtBy: ['lists.filter.oracle.custom-fields', 'lists.filter.meta.consistent'] },
  { name: 'statuses-pipeline-only', description: 'filter[statuses] elements are matched on pipeline_id only; status_id is ignored.',
    caughtBy: ['lists.filter.oracle.per-list', 'lists.filter.meta.consistent'] },
  { name: 'lists-filter-other-account', description: 'A list filter that matches nothing in the account is run over another account\'s records, and answers those.',
    caughtBy: ['lists.filter.other-account-ids'] },
  { name: 'name-filter-wildcards', description: 'filter[name] is matched like SQL LIKE: % and * match any run of characters, _ any one.',
    caughtBy: ['lists.filter.patterns-literal'] },
  { name: 'range-reversed-swapped', description: 'A range whose from is after its to is read with the bounds swapped.',
    caughtBy: ['lists.filter.range-reversed'] },
  { name: 'reject-scalar-filter', description: 'The single form filter[<field>]=<value> of a multiple field is refused with 400 (only arrays are accepted).',
    caughtBy: ['lists.filter.shapes', 'lists.filter.meta.encodings'] },
  { name: 'lists-customers-not-found', description: 'GET /api/v4/customers answers 404, as if the list did not exist (filtered or not).',
    caughtBy: ['lists.filter.shapes', 'lists.filter.no-server-error', 'lists.filter.meta.consistent', 'lists.filter.meta.union', 'lists.filter.meta.intersection', 'lists.filter.meta.range-narrowing', 'lists.filter.meta.encodings', 'lists.filter.meta.param-order', 'lists.filter.meta.pages-join'] },
  { name: 'accept-incomplete-statuses', description: 'A filter[statuses] element missing pipeline_id or status_id is accepted and matched on the key it has.',
    caughtBy: ['lists.filter.statuses.incomplete'] },
  { name: 'query-finds-nothing', description: 'The query search parameter matches no record.',
    caughtBy: ['lists.query.finds-by-name'] },
  // Issue 20, lists: more wrong answers per statement (§4.2)
] as const);
