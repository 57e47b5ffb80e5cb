/**
 * The allowed variations of the list endpoints (./engine.ts, ./routes.ts), each read here with
 * `variations.isOn('<name>')` (test/faults/areas.test.ts checks it). ../variations.ts assembles every area's table.
 */
import { defineVariations } from '../switches.js';

export const LISTS_VARIATIONS = defineVariations([
  // List filtering (§4.2)
  { name: 'lists-name-substring', description: 'filter[name] matches every record whose name contains the value, in any letter case (not only the exact name).',
    basis: 'stated-behaviour/open-point: §4.2 says only "filter[name] | string or array | … | By name"; how a name matches is not stated (REQ-4.2-name-match), so a substring or case-insensitive match is a reading of "By name".' },
  { name: 'lists-query-any-field', description: '`query` also searches every custom field value (enum texts, numbers, URLs, dates) and the record id, not only the name and text fields.',
    basis: 'stated-behaviour: §4.2 calls query a "Search string; will soon be deprecated" without saying which fields it searches; a hit in another field is a search hit.' },
  { name: 'lists-open-range-refused', description: 'A range filter with only [from] or only [to] is refused with 400 (both bounds are required).',
    basis: 'status-code/open-point: §4.2 "`Range` = `from`/`to` is allowed" and "Range | filter[<field>][from]=<number>&filter[<field>][to]=<number>": the spec shows both bounds; an open range is not stated (K18).' },
  { name: 'lists-reversed-range-422', description: 'A range whose [from] is after its [to] is refused with 422 Unprocessable Content instead of answered empty.',
    basis: 'stated-behaviour: a range selects the values from [from] to [to] (§4.2 "Range = from/to is allowed"); with from after to nothing is in it, and refusing it with any 4xx returns no record the caller excluded (K34).' },
  { name: 'lists-empty-200', description: 'A list with no matching record answers 200 with `{"_page":1,"_links":{…},"_embedded":{"<list>":[]}}` instead of 204 with no body.',
    basis: 'open-point: §4.2 "Response body of list endpoints: not shown"; 204 is how the live service answers (docs/field-notes.md), an empty page is as true an empty answer.' },
  { name: 'lists-id-descending', description: 'List records come newest first (id descending) instead of id ascending.',
    basis: 'open-point: §4.2 "Response body of list endpoints: not shown" and no sort order is stated; rules compare records as sets.' },
  { name: 'lists-small-pages', description: 'A list page holds at most 20 records (default 10) whatever `limit` asks, with `_links.next` to the rest.',
    basis: 'open-point: paging is not in the spec (§4.2 "Response body of list endpoints: not shown"); the 250 limit is the live service\'s (docs/field-notes.md), a smaller page is another server\'s choice.' },
  { name: 'lists-plain-json-no-links', description: 'List answers are plain `application/json` without any `_links` (list or record); more pages are read with `page`.',
    basis: 'open-point: §4.2 "Response body of list endpoints: not shown"; HAL and its links are the live service\'s shape (docs/field-notes.md), not the spec\'s.' },
  { name: 'lists-slow-filtered', description: 'The first filtered answer of each list is held 10 s before it is sent.',
    basis: 'effect-window: a hang is an answer slower than 30 s; a filter over a large list can take seconds.' },
  { name: 'lists-filters-any', description: 'Several filter parameters in one request are combined as alternatives (OR): a record matching any of them is returned.',
    basis: 'open-point: §4.2 names each parameter ("filter[id] … By ids", "filter[name] … By name") and says "Filter parameters are sent as query parameters", not how several combine (K20, REQ-4.2-combined-parameters: another combination than AND is recorded).' },
  // Rights inside one account (§5.1 item 2; ./rights.ts)
  { name: 'rights-beyond-refused-403', description: 'A list request of a user who may see only his own deals that names deals or users beyond his rights (filter[id] of another user\'s deal, filter[responsible_user_id] of another user) is refused with 403 instead of answered with his deals only.',
    basis: 'security: §5.1 item 2 "The token holds the rights of the user who granted access; calls beyond those rights are refused": a refusal is the spec\'s own word for such a call, and it shows nothing beyond his rights.' },
] as const);
