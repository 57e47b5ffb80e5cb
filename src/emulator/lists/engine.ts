/**
 * The `filter[...]` language of §4.2, compiled once per request into column tests. Input is the query as `qs` parsed
 * it (src/emulator/body.ts QS_OPTIONS), which already folds every form public clients send into one shape: raw and
 * percent-encoded brackets, `[]` and `[0]` arrays (both become arrays), indices beyond qs's arrayLimit (an object with
 * integer keys, read here as a list of values), the scalar single form, `[from]`/`[to]` objects.
 *
 * Policy (docs/control-api.md, "List endpoints"):
 * - values of one parameter are alternatives (OR); parameters are combined with AND;
 * - ranges are inclusive at both ends; `[from]` or `[to]` alone is an open range; an empty bound is no bound;
 * - `filter[name]` matches the whole name exactly; text custom fields match the whole value exactly;
 * - a checkbox `0` matches records where the box is unchecked or not set; a date given as a single value matches that
 *   exact timestamp; several values of checkbox and date fields are alternatives like any other;
 * - a malformed shape of a known parameter (a range on a non-range field, a non-numeric bound, a statuses element
 *   missing a key, an unknown custom field, a range on a custom field of a type without ranges) is a 400 naming it;
 * - unknown parameters inside `filter` are ignored, as unknown query parameters are.
 * Allowed variations (../variations.ts) change some of these where the spec leaves them open: `lists-name-substring`,
 * `lists-open-range-refused`, `lists-reversed-range-422`, `lists-query-any-field`.
 */
import { ProblemError } from '../errors.js';
import type { FaultSwitches } from '../faults.js';
import type { VariationSwitches } from '../variations.js';
import type { CfType, ListName } from './data.js';
import type { CfColumn, ListTable, NumericField } from './table.js';

export type Test = (i: number) => boolean;

export interface CompiledFilter {
  /** When the filter names ids, only these record indices are candidates (sorted ascending). */
  readonly candidates?: readonly number[];
  readonly tests: readonly Test[];
}

type Kind = 'ints' | 'strings' | 'range' | 'single-or-range' | 'statuses' | 'custom-fields';

const COMMON: Record<string, Kind> = {
  id: 'ints', name: 'strings', created_by: 'ints', updated_by: 'ints', responsible_user_id: 'ints',
  created_at: 'range', updated_at: 'range', closest_task_at: 'range', custom_fields_values: 'custom-fields',
};

export const FILTER_PARAMETERS: Record<ListName, Record<string, Kind>> = {
  leads: { ...COMMON, price: 'range', statuses: 'statuses', pipeline_id: 'ints', closed_at: 'range' },
  contacts: COMMON,
  companies: COMMON,
  customers: { ...COMMON, next_price: 'single-or-range', next_date: 'range', status_id: 'ints' },
};

const RANGE_CF_TYPES: readonly CfType[] = ['numeric', 'date', 'date_time'];

const bad = (detail: string): ProblemError => new ProblemError({ status: 400, detail });

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A list of values: an array, or an object whose keys are all indices (qs beyond its arrayLimit). Else undefined. */
function listOf(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) return keys.map((k) => v[k]);
  }
  return undefined;
}

function isRangeObject(v: unknown): v is Record<string, unknown> {
  return isObject(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => k === 'from' || k === 'to');
}

/**
 * Compiled filters of the filter objects seen lately, per table and per set of active faults. The server's query
 * parser hands out the same frozen object for a query it has seen (src/emulator/body.ts), so a repeated query skips
 * compiling; a new table (a reseed) or another fault set compiles again.
 */
const compiled = new WeakMap<object, WeakMap<ListTable, { readonly faults: string; readonly filter: CompiledFilter }>>();

export function compileFilter(list: ListName, table: ListTable, filter: unknown, faults: FaultSwitches, variations: VariationSwitches): CompiledFilter {
  if (!isObject(filter) || !Object.isFrozen(filter)) return compileFilterNow(list, table, filter, faults, variations);
  const active = `${faults.active().join(',')}|${variations.active().join(',')}`;
  let byTable = compiled.get(filter);
  if (!byTable) compiled.set(filter, (byTable = new WeakMap()));
  const known = byTable.get(table);
  if (known?.faults === active) return known.filter;
  const fresh = compileFilterNow(list, table, filter, faults, variations);
  byTable.set(table, { faults: active, filter: fresh });
  return fresh;
}

function compileFilterNow(list: ListName, table: ListTable, filter: unknown, faults: FaultSwitches, variations: VariationSwitches): CompiledFilter {
  if (!isObject(filter)) throw bad('`filter` must be an object of parameters, e.g. filter[id]=1');
  // Only for the fault: the companies list never reads its filter.
  if (list === 'companies' && faults.isOn('companies-filter-ignored')) return { tests: [] };
  const params = FILTER_PARAMETERS[list];
  // Only for the fault: a parameter of another list is read from a column this list does not have.
  if (faults.isOn('lists-crash-on-foreign-parameter')) {
    const foreign = Object.keys(filter).find((k) => !Object.hasOwn(params, k) && ANY_LIST_PARAMETERS.has(k));
    if (foreign !== undefined) throw new TypeError(`Cannot read properties of undefined (reading '${foreign}')`);
  }
  let keys = Object.keys(filter).filter((k) => Object.hasOwn(params, k));
  if (faults.isOn('only-first-filter-applied')) keys = keys.slice(0, 1);
  if (faults.isOn('only-last-filter-applied')) keys = keys.slice(-1);
  const tests: Test[] = [];
  let candidates: number[] | undefined;
  for (const key of keys) {
    if (key === 'responsible_user_id' && faults.isOn('ignore-responsible-user-filter')) continue;
    const value = filter[key];
    const name = `filter[${key}]`;
    // Only for the fault: a Multiple parameter is read only when it comes as a list; the single form is passed over.
    if (typeof value === 'string' && (params[key] === 'ints' || params[key] === 'strings') && faults.isOn('scalar-filter-ignored')) continue;
    shapeRefused(key, name, value, faults);
    switch (params[key]!) {
      case 'ints': {
        if (list === 'customers' && key === 'status_id' && faults.isOn('customers-status-id-ignored')) break;
        let values = multipleValues(name, value, faults).map((v) => integer(name, v));
        // Only for the fault: `WHERE id = ?` bound to the first value of the list.
        if (key === 'id' && faults.isOn('id-filter-first-only')) values = values.slice(0, 1);
        if (key === 'pipeline_id' && faults.isOn('lists-crash-on-unknown-pipeline')) pipelinesKnown(table, values);
        if (key === 'id') {
          const found = new Set<number>();
          for (const id of values) {
            const i = table.indexById.get(id);
            if (i !== undefined) found.add(i);
          }
          candidates = [...found].sort((a, b) => a - b);
        } else {
          const column = key === 'created_by' && faults.isOn('created-by-reads-responsible-user') ? 'responsible_user_id'
            : key === 'pipeline_id' && faults.isOn('pipeline-id-reads-status-id') ? 'status_id' : key;
          tests.push(inSet(table.num[column as NumericField], new Set(values)));
        }
        break;
      }
      case 'strings': {
        // Only for the fault: the value is lower-cased for a case-insensitive match, the names are not.
        const lower = faults.isOn('name-filter-lowercased-value');
        let wanted = multipleValues(name, value, faults).map((v) => (lower ? text(name, v).toLowerCase() : text(name, v)));
        // Only for the fault: the values overwrite one another, as a scalar query parser leaves the last.
        if (faults.isOn('name-filter-last-only')) wanted = wanted.slice(-1);
        const values = new Set(wanted);
        const names = table.names;
        if (faults.isOn('name-filter-wildcards')) {
          const patterns = [...values].map(likePattern);
          tests.push((i) => patterns.some((p) => p.test(names[i]!)));
        } else if (variations.isOn('lists-name-substring')) {
          const parts = [...values].map((v) => v.toLowerCase());
          tests.push((i) => { const n = names[i]!.toLowerCase(); return parts.some((p) => n.includes(p)); });
        } else tests.push((i) => values.has(names[i]!));
        break;
      }
      case 'range':
        // Only for the fault: the bounds are parsed, and the parameter dropped (the column is not indexed).
        if (key === 'closest_task_at' && faults.isOn('closest-task-at-ignored')) { range(name, value, faults, variations, true); break; }
        tests.push(inRange(table.num[rangeColumn(key, faults)], range(name, value, faults, variations, TIME_FIELDS.has(key))));
        break;
      case 'single-or-range': {
        const column = table.num[key as NumericField];
        if (isRangeObject(value)) tests.push(inRange(column, range(name, value, faults, variations)));
        else {
          const values = listOf(value) ?? [value];
          if (values.length !== 1) throw bad(`${name} takes one value or a range ([from], [to]), not several values`);
          const v = number(name, values[0], faults);
          // Only for the fault: the single form is parsed, then dropped (only the range form filters).
          if (!faults.isOn('next-price-single-ignored')) tests.push((i) => column[i] === v);
        }
        break;
      }
      case 'statuses':
        tests.push(statuses(table, value, faults));
        break;
      case 'custom-fields':
        tests.push(...customFields(table, value, faults, variations));
        break;
    }
  }
  return candidates ? { candidates, tests } : { tests };
}

/** Only for the faults: one parameter's validator written for one of the shapes §4.2 allows it, refusing the other. */
function shapeRefused(key: string, name: string, value: unknown, faults: FaultSwitches): void {
  const refused = (key === 'name' && typeof value !== 'string' && faults.isOn('name-array-refused'))
    || (key === 'updated_by' && typeof value === 'string' && faults.isOn('updated-by-scalar-refused'))
    || (key === 'pipeline_id' && typeof value === 'string' && faults.isOn('pipeline-id-scalar-refused'))
    || (key === 'price' && isRangeObject(value) && faults.isOn('price-range-refused'))
    || (key === 'next_price' && isRangeObject(value) && faults.isOn('next-price-range-refused'))
    || (key === 'created_by' && typeof value !== 'string' && faults.isOn('created-by-array-refused'))
    || (key === 'status_id' && typeof value === 'string' && faults.isOn('status-id-scalar-refused'))
    || (key === 'next_date' && faults.isOn('next-date-unknown'));
  if (refused) throw bad(`${name} does not take this form`);
}

/** Values of a Multiple parameter: the single form (a string) or a list. */
function multipleValues(name: string, value: unknown, faults: FaultSwitches): unknown[] {
  if (typeof value === 'string') {
    if (faults.isOn('reject-scalar-filter')) throw bad(`${name} must be an array of values`);
    if (faults.isOn('lists-crash-on-empty-value') && value === '') throw new TypeError(`Cannot read properties of null (reading '0') in ${name}`);
    return [value];
  }
  const values = listOf(value);
  if (values === undefined) throw bad(`${name} takes a value or a list of values (${name}[0]=…), not ${isRangeObject(value) ? 'a range' : 'an object'}`);
  // Only for the fault: an empty element (filter[id][]=) is dereferenced as if it were a parsed value.
  if (faults.isOn('lists-crash-on-empty-value') && values.some((v) => v === '')) throw new TypeError(`Cannot read properties of null (reading '0') in ${name}`);
  return values;
}

function integer(name: string, v: unknown): number {
  const n = integerValue(v);
  if (n === undefined) throw bad(`${name} values must be integers`);
  return n;
}

/** An integer filter value as the filter reads it (`=0<id>` names record `<id>`), undefined when it is none. */
export function integerValue(v: unknown): number | undefined {
  return typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim()) ? Number(v) : undefined;
}

function text(name: string, v: unknown): string {
  if (typeof v !== 'string') throw bad(`${name} values must be strings`);
  return v;
}

function number(name: string, v: unknown, faults: FaultSwitches): number {
  if (typeof v === 'string' && /^-?\d{1,15}(\.\d+)?$/.test(v.trim())) return Number(v);
  if (faults.isOn('crash-on-non-numeric-range')) throw new TypeError(`cannot read ${name} as a number`);
  throw bad(`${name} must be a number`);
}

interface Bounds { readonly from?: number; readonly to?: number }

function range(name: string, value: unknown, faults: FaultSwitches, variations: VariationSwitches, time = false): Bounds {
  if (!isRangeObject(value)) throw bad(`${name} takes a range: ${name}[from]=…&${name}[to]=…`);
  // Only for the fault: time bounds read as milliseconds, as a JavaScript Date would take them.
  const scale = time && faults.isOn('time-range-in-milliseconds') ? 1 / 1000 : 1;
  const bound = (k: 'from' | 'to'): number | undefined => {
    const v = value[k];
    if (v === undefined || v === '') return undefined;
    return Math.floor(number(`${name}[${k}]`, v, faults) * scale);
  };
  let from = faults.isOn('range-lower-bound-ignored') ? undefined : bound('from');
  let to = faults.isOn('range-upper-bound-ignored') ? undefined : bound('to');
  if (variations.isOn('lists-open-range-refused') && (from === undefined || to === undefined)) throw bad(`${name} needs both [from] and [to]`);
  if (variations.isOn('lists-reversed-range-422') && from !== undefined && to !== undefined && from > to) {
    throw new ProblemError({ status: 422, detail: `${name}: [from] is after [to]` });
  }
  if (faults.isOn('range-reversed-swapped') && from !== undefined && to !== undefined && from > to) [from, to] = [to, from];
  // Only for the fault: a range out of order is dropped as invalid, so the filter selects every value.
  if (faults.isOn('range-reversed-ignored') && from !== undefined && to !== undefined && from > to) return {};
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** Only for the `name-filter-wildcards` fault: the value read as a SQL LIKE pattern (% and * any run, _ one character). */
function likePattern(value: string): RegExp {
  const body = [...value].map((c) => (c === '%' || c === '*' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 's');
}

function inSet(column: Float64Array, values: ReadonlySet<number>): Test {
  return (i) => values.has(column[i]!);
}

/** Inclusive at both ends; a record without the value (NaN) is in no range. */
function inRange(column: Float64Array, { from, to }: Bounds): Test {
  const lo = from ?? Number.NEGATIVE_INFINITY;
  const hi = to ?? Number.POSITIVE_INFINITY;
  return (i) => {
    const v = column[i]!;
    return v >= lo && v <= hi;
  };
}

function statuses(table: ListTable, value: unknown, faults: FaultSwitches): Test {
  const elements = listOf(value);
  if (elements === undefined) throw bad('filter[statuses] takes a list: filter[statuses][0][pipeline_id]=…&filter[statuses][0][status_id]=…');
  const pairs = new Map<number, Set<number> | 'any'>();
  const anyPipeline = new Set<number>();
  elements.forEach((el, n) => {
    const name = `filter[statuses][${n}]`;
    if (!isObject(el)) throw bad(`${name} must hold pipeline_id and status_id`);
    const hasPipeline = el.pipeline_id !== undefined;
    const hasStatus = el.status_id !== undefined;
    // Only for the fault: both keys are read before either is checked, and the missing one is dereferenced.
    if ((!hasPipeline || !hasStatus) && faults.isOn('statuses-incomplete-crash')) throw new TypeError(`Cannot read properties of undefined (reading 'trim') in ${name}`);
    if (!hasPipeline || !hasStatus) {
      // Only for the `statuses-pipeline-id-optional` fault: status_id is required, pipeline_id is not (the status in any pipeline).
      const halfAccepted = faults.isOn('accept-incomplete-statuses') || (hasStatus && faults.isOn('statuses-pipeline-id-optional'));
      if (!halfAccepted) throw bad(`${name} needs both pipeline_id and status_id`);
      if (hasPipeline) pairs.set(integer(`${name}[pipeline_id]`, el.pipeline_id), 'any');
      else if (hasStatus) anyPipeline.add(integer(`${name}[status_id]`, el.status_id));
      return;
    }
    const pipeline = integer(`${name}[pipeline_id]`, el.pipeline_id);
    const status = integer(`${name}[status_id]`, el.status_id);
    if (faults.isOn('lists-crash-on-unknown-pipeline')) pipelinesKnown(table, [pipeline]);
    // Only for the fault: the element is matched on its status id alone, in any pipeline.
    if (faults.isOn('statuses-status-only')) { anyPipeline.add(status); return; }
    // Only for the fault: each element overwrites the one before (a map keyed by the filter name, not by index).
    if (faults.isOn('statuses-last-element-only') && n < elements.length - 1) return;
    const current = pairs.get(pipeline);
    if (current === 'any') return;
    if (faults.isOn('statuses-pipeline-only')) pairs.set(pipeline, 'any');
    else if (current) current.add(status);
    else pairs.set(pipeline, new Set([status]));
  });
  const pipelineCol = table.num.pipeline_id;
  const statusCol = table.num.status_id;
  return (i) => {
    const s = pairs.get(pipelineCol[i]!);
    return s === 'any' || (s !== undefined && s.has(statusCol[i]!)) || anyPipeline.has(statusCol[i]!);
  };
}

/** The time parameters (§4.2: "Time fields take timestamps"). */
const TIME_FIELDS: ReadonlySet<string> = new Set(['created_at', 'updated_at', 'closest_task_at', 'closed_at', 'next_date']);

/** Every parameter some list has: a parameter of another list is not an unknown one. */
const ANY_LIST_PARAMETERS: ReadonlySet<string> = new Set(Object.values(FILTER_PARAMETERS).flatMap((p) => Object.keys(p)));

/** The column a range parameter reads; only faults read another one. */
function rangeColumn(key: string, faults: FaultSwitches): NumericField {
  if (key === 'updated_at' && faults.isOn('updated-at-reads-created-at')) return 'created_at';
  if (key === 'closed_at' && faults.isOn('closed-at-reads-created-at')) return 'created_at';
  return key as NumericField;
}

/** Only for the `lists-crash-on-unknown-pipeline` fault: a pipeline no deal is in is dereferenced all the same. */
function pipelinesKnown(table: ListTable, pipelines: readonly number[]): void {
  const column = table.num.pipeline_id;
  for (const p of pipelines) if (!column.includes(p)) throw new TypeError(`Cannot read properties of undefined (reading 'statuses') for pipeline ${p}`);
}

/** Only for the `cf-filter-next-field` fault: the list's field after the one named (an index off by one). */
function nextField(table: ListTable, column: CfColumn): CfColumn {
  const columns = [...table.cf.values()];
  return columns[(columns.indexOf(column) + 1) % columns.length]!;
}

function customFields(table: ListTable, value: unknown, faults: FaultSwitches, variations: VariationSwitches): Test[] {
  if (!isObject(value) || Array.isArray(value)) throw bad('filter[custom_fields_values] takes field ids: filter[custom_fields_values][<field_id>][]=…');
  const tests: Test[] = [];
  for (const [fieldId, spec] of Object.entries(value)) {
    const name = `filter[custom_fields_values][${fieldId}]`;
    let column = /^\d{1,15}$/.test(fieldId) ? table.cf.get(Number(fieldId)) : undefined;
    if (!column && faults.isOn('lists-crash-on-unknown-cf-field')) throw new TypeError(`Cannot read properties of undefined (reading 'type') for ${name}`);
    if (!column) throw bad(`${name}: no custom field ${fieldId} on this list`);
    if (faults.isOn('cf-filter-next-field')) column = nextField(table, column);
    if (column.def.type === 'url' && faults.isOn('ignore-url-custom-fields')) continue;
    tests.push(customFieldTest(name, column, spec, faults, variations));
  }
  return tests;
}

function customFieldTest(name: string, column: CfColumn, spec: unknown, faults: FaultSwitches, variations: VariationSwitches): Test {
  const type = column.def.type;
  if (isRangeObject(spec)) {
    if (!RANGE_CF_TYPES.includes(type)) throw bad(`${name}: a ${type} field takes no range`);
    return inRange(column.nums!, range(name, spec, faults, variations, type !== 'numeric'));
  }
  const values = multipleValues(name, spec, faults);
  // Only for the fault: date fields are filtered by range only; a timestamp value is parsed and dropped.
  if ((type === 'date' || type === 'date_time') && faults.isOn('cf-date-value-ignored')) return () => true;
  if (column.nums) {
    const set = new Set(values.map((v) => (type === 'numeric' ? number(name, v, faults) : integer(name, v))));
    return inSet(column.nums, set);
  }
  if (column.strs) {
    const set = new Set(values.map((v) => text(name, v)));
    const strs = column.strs;
    return (i) => { const s = strs[i]; return s !== undefined && set.has(s); };
  }
  if (column.enums) {
    const set = new Set(values.map((v) => integer(name, v)));
    const enums = column.enums;
    // Only for the fault: every value asked must be among the record's (ALL), where the values are alternatives (ANY).
    if (faults.isOn('enum-values-all')) return (i) => { const held = enums[i]; return held !== undefined && [...set].every((e) => held.includes(e)); };
    return (i) => enums[i]?.some((e) => set.has(e)) ?? false;
  }
  const wanted = new Set(values.map((v) => {
    if (v === '1' || v === 'true') return 1;
    if (v === '0' || v === 'false') return 0;
    throw bad(`${name}: a checkbox takes 1 or 0`);
  }));
  const bools = column.bools!;
  // Only for the `lists-checkbox-zero-ignored` fault: 0 is read as "no condition", so checked records come back too.
  if (faults.isOn('lists-checkbox-zero-ignored') && wanted.has(0)) return () => true;
  // Only for the `checkbox-one-matches-set` fault: 1 read as "the field has a value", so unchecked boxes match too.
  if (faults.isOn('checkbox-one-matches-set') && wanted.has(1)) return (i) => bools[i] !== -1 || wanted.has(0);
  return (i) => wanted.has(bools[i] === 1 ? 1 : 0);
}

/**
 * `query` (leads, contacts, companies): case-insensitive search in the name and the text custom fields; under the
 * `lists-query-any-field` variation in every custom field value and the id too.
 */
export function searchTest(table: ListTable, query: string, faults: FaultSwitches, variations: VariationSwitches): Test {
  if (faults.isOn('query-finds-nothing')) return () => false;
  const needle = query.toLowerCase();
  // Only for the fault: the search string goes into a LIKE '%…%' unescaped, so % and _ are wildcards.
  if (faults.isOn('query-like-pattern')) {
    const pattern = new RegExp(likePattern(needle).source.slice(1, -1), 's');
    return (i) => table.search[i]!.split('\n').some((text) => pattern.test(text));
  }
  const haystack = variations.isOn('lists-query-any-field') ? wideSearch(table) : table.search;
  return (i) => haystack[i]!.includes(needle);
}

const wide = new WeakMap<ListTable, readonly string[]>();

/** Only for the `lists-query-any-field` variation: each record's id, name and every custom field value, lower-case. */
function wideSearch(table: ListTable): readonly string[] {
  let texts = wide.get(table);
  if (!texts) {
    texts = table.records.map((r) => [String(r.id), r.name, ...(r.custom_fields_values ?? []).flatMap((f) => f.values.map((v) => String(v.value)))].join('\n').toLowerCase());
    wide.set(table, texts);
  }
  return texts;
}
