/**
 * Which records a list answer holds (§4.2): none of another account's, whatever a filter names; the one a filter
 * names by a value that must round-trip.
 */
import type { Check } from '../model/check.js';
import { fail, nonStrict, pass } from '../model/outcome.js';
import { parseJson } from './json.js';
import { briefBody } from './status.js';

/** The ids of every record under `_embedded` of a HAL list answer. */
export function embeddedIds(body: unknown): number[] {
  const embedded = (body as { _embedded?: unknown } | undefined)?._embedded;
  if (embedded === null || typeof embedded !== 'object') return [];
  return Object.values(embedded).flatMap((items) => (Array.isArray(items) ? items : []))
    .map((r) => (r as { id?: unknown } | null)?.id)
    .filter((id): id is number => typeof id === 'number');
}

/** No record of `foreign` in the answer: 204 or a page without them passes; a refusal of the valid filter is non_strict. */
export function showsNoneOf(foreign: readonly number[], what: string): Check {
  const name = `no record of ${what}`;
  const wanted = new Set(foreign);
  return (res) => {
    if (res.status === 204) return pass(name, '204, no record');
    if (res.status >= 200 && res.status < 300) {
      const leaked = embeddedIds(parseJson(res)).filter((id) => wanted.has(id));
      return leaked.length > 0
        ? fail(name, `expected none of the ${foreign.length} ids named, observed ${leaked.length}: ${leaked.slice(0, 5).join(', ')}`)
        : pass(name, `${res.status}, none of the ${foreign.length} ids named`);
    }
    if (res.status >= 400 && res.status < 500) return nonStrict(name, `expected an empty answer (the filter is valid), observed ${res.status}${briefBody(res)}`);
    return fail(name, `expected an empty answer, observed ${res.status}${briefBody(res)}`);
  };
}

/** The record `id` is in the answer (a 2xx page); a 204 or a page without it fails. */
export function showsRecord(id: number, what: string): Check {
  const name = `finds ${what}`;
  return (res) => {
    if (res.status >= 200 && res.status < 300 && embeddedIds(parseJson(res)).includes(id)) return pass(name, `${res.status}, record ${id} returned`);
    return fail(name, `expected record ${id} in the answer, observed ${res.status}${res.status === 204 ? ' (no record)' : briefBody(res)}`);
  };
}
