/**
 * What a filter means, judged on records (the kit's own reading of §4.2, independent of the emulator's engine).
 * Where the spec is loose the check takes two readings and keeps the lenient verdict (docs/design.md §2):
 * - `loose`: what a returned record must satisfy (ranges inclusive, names and text values matched as a
 *   case-insensitive substring, an unset checkbox counts as 0, a `date` value on the same day);
 * - `strict`: what a record must satisfy to be owed (ranges exclusive, exact names and values, a checkbox set).
 * A record that satisfies `strict` must be returned; a returned record must satisfy `loose`.
 */
import type { Check } from '../model/check.js';
import type { Finding } from '../model/outcome.js';
import { fail, observed, pass } from '../model/outcome.js';
import { isSuccess } from '../model/http.js';
import { briefBody } from './status.js';
import type { RecordView } from '../protocol/answers.js';
import { describeFilter, ENUM_CF_TYPES, TEXT_CF_TYPES, type Clause, type Scalar } from '../protocol/filters.js';

export type Reading = 'loose' | 'strict';

/** true / false, or undefined when the record does not show what the clause is about. */
export type Verdict3 = boolean | undefined;

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : undefined);

function inRange(v: number, from: number | undefined, to: number | undefined, reading: Reading): boolean {
  if (reading === 'loose') return (from === undefined || v >= from) && (to === undefined || v <= to);
  return (from === undefined || v > from) && (to === undefined || v < to);
}

function textMatch(actual: string, wanted: string, reading: Reading): boolean {
  return reading === 'strict' ? actual === wanted : actual.toLowerCase().includes(wanted.toLowerCase());
}

const DAY = 86_400;

export function satisfiesClause(r: RecordView, c: Clause, reading: Reading): Verdict3 {
  switch (c.kind) {
    case 'values': {
      if (!(c.field in r)) return undefined;
      const actual = r[c.field];
      if (c.field === 'name') return typeof actual === 'string' && c.values.some((v) => textMatch(actual, String(v), reading));
      const n = num(actual);
      return n !== undefined && c.values.some((v) => num(v) === n);
    }
    case 'range': {
      if (!(c.field in r)) return undefined;
      const n = num(r[c.field]);
      return n !== undefined && inRange(n, c.from, c.to, reading);
    }
    case 'statuses': {
      if (!('pipeline_id' in r) || !('status_id' in r)) return undefined;
      const p = num(r.pipeline_id);
      const s = num(r.status_id);
      return c.pairs.some((pair) => pair.pipeline_id === p && pair.status_id === s);
    }
    case 'cf-values':
    case 'cf-range': {
      if (!('custom_fields_values' in r)) return undefined;
      const cf = (r.custom_fields_values ?? []).find((v) => num(v.field_id) === c.fieldId);
      const items = cf?.values ?? [];
      if (c.kind === 'cf-range') return items.some((it) => { const n = num(it.value); return n !== undefined && inRange(n, c.from, c.to, reading); });
      return cfValuesMatch(c.fieldType, items, c.values, reading);
    }
  }
}

function cfValuesMatch(type: string, items: readonly { value?: unknown; enum_id?: unknown }[], wanted: readonly Scalar[], reading: Reading): boolean {
  if (type === 'checkbox') {
    const checked = items.some((it) => it.value === true || it.value === 1 || it.value === '1');
    const unset = items.length === 0;
    return wanted.some((w) => (String(w) === '1' ? checked : !checked && (reading === 'loose' || !unset)));
  }
  if ((ENUM_CF_TYPES as readonly string[]).includes(type)) return items.some((it) => wanted.some((w) => num(w) === num(it.enum_id)));
  if ((TEXT_CF_TYPES as readonly string[]).includes(type)) return items.some((it) => typeof it.value === 'string' && wanted.some((w) => textMatch(it.value as string, String(w), reading)));
  return items.some((it) => {
    const n = num(it.value);
    if (n === undefined) return false;
    return wanted.some((w) => {
      const x = num(w);
      if (x === undefined) return false;
      return type === 'date' && reading === 'loose' ? Math.floor(n / DAY) === Math.floor(x / DAY) : n === x;
    });
  });
}

/**
 * How the parameters of one filter combine: `all` (AND, the kit's reading) or `any` (OR). §4.2 does not say; another
 * combination than AND is recorded, not failed (K20, REQ-4.2-combined-parameters).
 */
export type Combination = 'all' | 'any';

/** All clauses hold (AND; `any`: one holds); undefined when no clause decides it. */
export function satisfies(r: RecordView, clauses: readonly Clause[], reading: Reading, combine: Combination = 'all'): Verdict3 {
  let unknown = false;
  for (const c of clauses) {
    const v = satisfiesClause(r, c, reading);
    if (v === (combine === 'any')) return v;
    if (v === undefined) unknown = true;
  }
  return unknown ? undefined : combine === 'all';
}

const ids = (list: readonly number[], max = 5): string => `${list.slice(0, max).join(', ')}${list.length > max ? ` and ${list.length - max} more` : ''}`;

/** Soundness: every returned record satisfies the filter (loose reading); records that do not show the field are not judged. */
export function returnedSatisfy(name: string, returned: readonly RecordView[], clauses: readonly Clause[], combine: Combination = 'all'): Finding {
  const wrong = returned.filter((r) => satisfies(r, clauses, 'loose', combine) === false).map((r) => r.id);
  return wrong.length === 0
    ? pass(name, `${returned.length} record(s) returned for ${describeFilter(clauses)}, each satisfies it`)
    : fail(name, `expected every record returned for ${describeFilter(clauses)} to satisfy it, observed ${wrong.length} that do not (ids ${ids(wrong)})`);
}

/** Completeness: every record of `universe` that satisfies the filter (strict reading) is among the returned ids. */
export function noneMissing(name: string, returnedIds: ReadonlySet<number>, universe: readonly RecordView[], clauses: readonly Clause[], universeName: string, combine: Combination = 'all'): Finding {
  const owed = universe.filter((r) => satisfies(r, clauses, 'strict', combine) === true);
  const missing = owed.filter((r) => !returnedIds.has(r.id)).map((r) => r.id);
  return missing.length === 0
    ? pass(name, `all ${owed.length} record(s) of ${universeName} that satisfy ${describeFilter(clauses)} were returned`)
    : fail(name, `expected the ${owed.length} record(s) of ${universeName} that satisfy ${describeFilter(clauses)} to be returned, observed ${missing.length} missing (ids ${ids(missing)})`);
}

/** `a` ⊆ `b`. */
export function subsetOf(name: string, a: ReadonlySet<number>, b: ReadonlySet<number>, aName: string, bName: string): Finding {
  const extra = [...a].filter((id) => !b.has(id));
  return extra.length === 0
    ? pass(name, `${aName} (${a.size}) ⊆ ${bName} (${b.size})`)
    : fail(name, `expected ${aName} ⊆ ${bName}, observed ${extra.length} record(s) only in ${aName} (ids ${ids(extra)})`);
}

export function sameSet(name: string, a: ReadonlySet<number>, b: ReadonlySet<number>, aName: string, bName: string): Finding {
  const onlyA = [...a].filter((id) => !b.has(id));
  const onlyB = [...b].filter((id) => !a.has(id));
  return onlyA.length === 0 && onlyB.length === 0
    ? pass(name, `${aName} = ${bName} (${a.size} records)`)
    : fail(name, `expected ${aName} = ${bName}, observed ${onlyA.length} record(s) only in the first${onlyA.length ? ` (ids ${ids(onlyA)})` : ''} and ${onlyB.length} only in the second${onlyB.length ? ` (ids ${ids(onlyB)})` : ''}`);
}

export function disjoint(name: string, a: ReadonlySet<number>, b: ReadonlySet<number>, aName: string, bName: string): Finding {
  const both = [...a].filter((id) => b.has(id));
  return both.length === 0
    ? pass(name, `${aName} and ${bName} share no record`)
    : fail(name, `expected ${aName} and ${bName} to share no record, observed ${both.length} in both (ids ${ids(both)})`);
}

/** A paged fetch showed no record on two pages. */
export function noDuplicates(fetch: { readonly pages: number; readonly duplicates: readonly number[] }): Finding {
  return fetch.duplicates.length === 0
    ? pass('no duplicates', `${fetch.pages} pages, no record twice`)
    : fail('no duplicates', `expected each record on one page only, observed ${fetch.duplicates.length} repeated (ids ${ids([...fetch.duplicates])})`);
}

/** A filter that selects fewer than two records leaves no pages to join: noted, nothing to judge. */
export function nothingToPage(what: string, count: number): Finding {
  return pass('pages', `${what} selects ${count} record(s): nothing to page`);
}

/** Many findings in one rule: the ones that are not plain passes, or one pass that counts them. */
export function condense(findings: readonly Finding[], what: string): Finding[] {
  const notable = findings.filter((f) => f.verdict !== 'passed');
  return notable.length > 0 ? notable : [pass(what, `${findings.length} checks held`)];
}

/**
 * An open range (only [from] or only [to]) refused: recorded (informational), never a failure of its own. §4.2 shows a
 * range with both bounds ("`Range` = `from`/`to` is allowed"); one bound alone is not stated (reading `open-point`, K18).
 */
export function openRangeRefused(what: string, status: number): Finding {
  return observed('open range', `${what} refused with ${status}: a range with one bound is not stated (§4.2 shows [from] and [to]), recorded`);
}

/**
 * A filter shape §4.2 allows is accepted: a 2xx (200 with records, or 204 when none match) passes, a refusal fails. An
 * open range is not stated, so its refusal is recorded (`openRangeRefused`), not failed.
 */
export function shapeAccepted(what: string, openRange = false): Check {
  return (res) => {
    if (isSuccess(res.status)) return pass(what, `status ${res.status}`);
    if (openRange && res.status >= 400 && res.status < 500) return openRangeRefused(what, res.status);
    return fail(what, `expected a 2xx answer (200 with records, or 204 when none match), observed ${res.status}${briefBody(res)}`);
  };
}

/**
 * Several parameters combined as alternatives (OR) where the kit reads AND: recorded, not failed. §4.2 names each
 * parameter ("filter[id] … By ids") and says "Filter parameters are sent as query parameters", not how several combine
 * (K20, REQ-4.2-combined-parameters).
 */
export function combinedOtherwise(what: string, clauses: readonly Clause[]): Finding {
  return observed('parameters combined', `${what}: the ${clauses.length} parameters of ${describeFilter(clauses)} were combined as alternatives (OR), not all together (AND); how parameters combine is not stated (§4.2), recorded`);
}

/**
 * Two parameters together: a subset of each alone (AND) passes; exactly the union of the two (OR) is recorded
 * (`combinedOtherwise`); anything else fails on the subset that does not hold (one parameter ignored).
 */
export function together(name: string, both: ReadonlySet<number>, a: ReadonlySet<number>, b: ReadonlySet<number>, names: { both: string; a: string; b: string }, clauses: readonly Clause[]): Finding[] {
  const findings = [subsetOf(`${name}: A∧B ⊆ A`, both, a, names.both, names.a), subsetOf(`${name}: A∧B ⊆ B`, both, b, names.both, names.b)];
  if (findings.every((f) => f.verdict === 'passed')) return findings;
  const union = new Set([...a, ...b]);
  return sameSet(name, both, union, '', '').verdict === 'passed' ? [combinedOtherwise(name, clauses)] : findings;
}

/**
 * Two spellings of one filter (raw or percent-encoded brackets, [] or [0] arrays, a scalar or a one-element array)
 * return the same records (REQ-4.2-encodings-equivalent, R2-A12): §4.2 writes the Single, Multiple and `[]` forms of one
 * filter, and a URL query can carry its brackets only percent-encoded (RFC 3986 §3.4 leaves `[` `]` out of a query's
 * characters), so each spelling is the filter §4.2 states and a difference fails. A spelling refused is judged by the
 * fetch, not here.
 */
export function equivalentSpellings(name: string, a: ReadonlySet<number>, b: ReadonlySet<number>, aName: string, bName: string): Finding {
  return sameSet(name, a, b, aName, bName);
}
