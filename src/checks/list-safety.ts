/**
 * Checks of list answers against characters that pattern languages treat specially (§4.2): each record returned for a
 * name filter or a search must really carry the value sent, literally; a reversed range returns nothing or is refused.
 */
import type { Check } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, nonStrict, pass } from '../model/outcome.js';
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
 * Every record returned carries `value` literally in its name: equal to it (`filter[name]`, an exact match) or
 * containing it (`query`, a search). A 400 is non_strict (the value is a legal string); a wildcard reading fails.
 */
export function namesLiterally(list: ListName, value: string, how: 'equals' | 'contains'): Check {
  const name = `${how === 'equals' ? 'filter[name]' : 'query'} literal`;
  return (res) => {
    if (res.status >= 400 && res.status < 500) return nonStrict(name, `expected the value to be matched literally, observed a refusal ${res.status}${briefBody(res)}`);
    const records = recordsOf(res, list);
    if (records === undefined) return fail(name, `expected a list answer (_embedded.${list} or 204), observed ${res.status}${briefBody(res)}`);
    const needle = value.toLowerCase();
    // A search (query) looks in the name and the text custom fields (§4.2); an exact name filter in the name only.
    const matches = (r: Record<string, unknown>) => how === 'equals'
      ? r.name === value
      : [r.name, ...textValues(r)].some((v) => typeof v === 'string' && v.toLowerCase().includes(needle));
    const strays = records.filter((r) => !matches(r));
    return strays.length === 0
      ? pass(name, `${records.length} record(s), each ${how === 'equals' ? 'named' : 'naming'} ${JSON.stringify(value)}`)
      : fail(name, `${JSON.stringify(value)} acted as a pattern: ${strays.length} of ${records.length} records do not ${how === 'equals' ? 'have that name' : 'contain it in the name or a text field'} (first: ${JSON.stringify(strays[0]!.name)})`);
  };
}

/** A range whose from is after its to selects nothing: an empty answer or a 400; records returned fail. */
export function emptyOrRefused(list: ListName): Check {
  return (res) => {
    if (res.status === 400) return pass('reversed range', 'refused with 400');
    if (res.status >= 400 && res.status < 500) return nonStrict('reversed range', `expected an empty answer or 400, observed ${res.status}`);
    const records = recordsOf(res, list);
    if (records === undefined) return fail('reversed range', `expected a list answer or 400, observed ${res.status}${briefBody(res)}`);
    return records.length === 0
      ? pass('reversed range', `empty (${res.status})`)
      : fail('reversed range', `expected no record for a range whose from is after its to, observed ${records.length}`);
  };
}

/** The string values of a record's custom fields. */
function textValues(record: Record<string, unknown>): unknown[] {
  const fields = record.custom_fields_values;
  if (!Array.isArray(fields)) return [];
  return fields.flatMap((f) => (Array.isArray((f as { values?: unknown }).values) ? (f as { values: { value?: unknown }[] }).values.map((v) => v?.value) : []));
}
