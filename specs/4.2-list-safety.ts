/**
 * §4.2 List filtering, safety: characters that SQL LIKE, globs or regular expressions treat as patterns are plain
 * characters in `filter[name]` (an exact match) and in `query` (a search), and a range whose from is after its to
 * selects nothing. Read-only: sent against whatever records the account holds.
 */
import {
  defineSpec, emptyOrRefused, filterBearer, type HttpResponse, listRequest, type ListName, LISTS, namesLiterally, QUERY_LISTS, sweepRule,
} from './kit.js';

/** Pattern characters of SQL LIKE (%, _), globs (*, ?), regular expressions (.*) and quoting (', \). */
const PATTERNS: readonly string[] = ['%', '_', '*', '%_%', '.*', '?', "'", '"', '\\'];

interface PatternCase {
  readonly list: ListName;
  readonly value: string;
  readonly param: 'filter[name]' | 'query';
}
const PATTERN_CASES: readonly PatternCase[] = [
  ...LISTS.flatMap((list) => PATTERNS.map((value): PatternCase => ({ list, value, param: 'filter[name]' }))),
  ...QUERY_LISTS.flatMap((list) => PATTERNS.map((value): PatternCase => ({ list, value, param: 'query' }))),
];

/** created_at from now to the epoch: reversed, and swapped it would be every record. */
const REVERSED = (now: number) => `filter[created_at][from]=${now}&filter[created_at][to]=0`;

export default defineSpec({
  section: '4.2',
  title: 'List filtering: safety',
  level: 'should',
  rules: [
    sweepRule<PatternCase, HttpResponse, string>(
      { id: 'lists.filter.patterns-literal', requires: [],
        title: 'Pattern characters (%, _, *, ?, .*, quotes, backslash) in filter[name] and query are matched literally, never as wildcards',
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
      { id: 'lists.filter.range-reversed', level: 'must', requires: [],
        title: 'A range whose from is after its to (filter[created_at]) selects nothing: an empty answer or 400, never records',
        reading: '§4.2: a range filter selects values from [from] to [to]; with from after to no value is in it. A server that swaps or drops the bounds returns records the caller excluded. An empty 200, a 204 or any 4xx pass (K34); a 2xx body not shaped as a list is recorded (the list body is "not shown"). Skipped when the paid filter feature is off.' },
      {
        setup: filterBearer,
        named: LISTS,
        send: (t, list, bearer) => t.send(listRequest(t.target, bearer, list, REVERSED(Math.floor(Date.now() / 1000) + 86_400))),
        expect: (_t, list) => [emptyOrRefused(list)],
        label: (list) => list,
      },
    ),
  ],
});
