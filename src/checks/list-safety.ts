/**
 * Checks of list answers against characters that pattern languages treat specially (§4.2): each record returned for a
 * name filter or a search must really carry the value sent, literally; a reversed range returns nothing or is refused.
 */
import type { Check } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, observed, pass } from '../model/outcome.js';
import type { ListName } from '../protocol/filters.js';
import { briefBody } from './status.js';
import { parseJson } from './json.js';

/** The records of a list answer: [] for 204, undefined when the answer carries no `_embedded.<list>` array. */
function recordsOf(res: HttpResponse, list: ListName): readonly Record<string, unknown>[] | undefined {
  if (res.status === 204) return [];
  const body = parseJson(res) as { _embedded?: Record<string, unknown> } | undefined;
  const records = body?._embedded?.[list];
  return Array.isArray(records) ? records.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object') : undefined;
}

/**
 * Every record returned carries `value` literally, in any letter case: `filter[name]` in its name (§4.2 says only "By
 * name": an exact and a substring match both pass, K35), `query` anywhere in the record (§4.2 calls it a "search
 * string" without saying which fields it searches). A pattern reading fails: records that do not carry the value at
 * all. A refusal passes (nothing was matched as a pattern); a 2xx body not shaped as a list is recorded (the list body
 * is "not shown").
 */
export function namesLiterally(list: ListName, value: string, how: 'equals' | 'contains'): Check {
  const name = `${how === 'equals' ? 'filter[name]' : 'query'} literal`;
  return (res) => {
    if (res.status >= 400 && res.status < 500) return pass(name, `refused with ${res.status}: nothing matched as a pattern`);
    const records = recordsOf(res, list);
    if (records === undefined) return observed(name, `a ${res.status} answer that is not a list (_embedded.${list} or 204); the list body is not shown (§4.2)${briefBody(res)}`);
    const needle = value.toLowerCase();
    const carries = (v: unknown) => typeof v === 'string' && v.toLowerCase().includes(needle);
    const matches = (r: Record<string, unknown>) => (how === 'equals' ? carries(r.name) : valuesOf(r).some(carries));
    const strays = records.filter((r) => !matches(r));
    return strays.length === 0
      ? pass(name, `${records.length} record(s), each ${how === 'equals' ? 'with a name holding' : 'holding'} ${JSON.stringify(value)}`)
      : fail(name, `${JSON.stringify(value)} acted as a pattern: ${strays.length} of ${records.length} records do not hold it ${how === 'equals' ? 'in the name' : 'in any value'} (first: ${JSON.stringify(strays[0]!.name)})`);
  };
}

/**
 * A range whose from is after its to selects nothing: an empty answer (a 204 or an empty page) or any refusal (4xx)
 * passes; records returned fail; a 2xx body not shaped as a list is recorded (the list body is "not shown", K34).
 */
export function emptyOrRefused(list: ListName): Check {
  return (res) => {
    if (res.status >= 400 && res.status < 500) return pass('reversed range', `refused with ${res.status}`);
    const records = recordsOf(res, list);
    if (records === undefined) return observed('reversed range', `a ${res.status} answer that is not a list (_embedded.${list} or 204); the list body is not shown (§4.2)${briefBody(res)}`);
    return records.length === 0
      ? pass('reversed range', `empty (${res.status})`)
      : fail('reversed range', `expected no record for a range whose from is after its to, observed ${records.length}`);
  };
}

/** Every string value of a record, at any depth (numbers as text), except its `_links`. */
function valuesOf(value: unknown, key = ''): string[] {
  if (key === '_links') return [];
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return value.flatMap((v) => valuesOf(v));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => valuesOf(v, k));
  return [];
}
