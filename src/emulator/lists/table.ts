/**
 * One list's records prepared once for fast filtering: columns of numbers (NaN where a value is absent), custom-field
 * columns by field id, an id index, a lower-case search text for `query`, and each record's JSON serialised once (the
 * hot path joins strings, it never re-serialises an unchanged record).
 */
import type { CfType, CustomFieldDef, ListName, ListRecord, RecordEmbedded } from './data.js';

export const NUMERIC_FIELDS = [
  'created_by', 'updated_by', 'responsible_user_id', 'created_at', 'updated_at', 'closest_task_at',
  'price', 'status_id', 'pipeline_id', 'closed_at', 'next_price', 'next_date',
] as const;
export type NumericField = (typeof NUMERIC_FIELDS)[number];

export interface CfColumn {
  readonly def: CustomFieldDef;
  /** numeric, date, date_time: the value; NaN when the record has none. */
  readonly nums?: Float64Array;
  /** text, url, textarea, streetaddress: the value. */
  readonly strs?: readonly (string | undefined)[];
  /** select, multiselect, radiobutton: the enum ids. */
  readonly enums?: readonly (readonly number[] | undefined)[];
  /** checkbox: 1 true, 0 false, -1 not set. */
  readonly bools?: Int8Array;
}

export interface ListTable {
  readonly list: ListName;
  readonly records: readonly ListRecord[];
  readonly size: number;
  readonly indexById: ReadonlyMap<number, number>;
  readonly ids: Float64Array;
  readonly num: Readonly<Record<NumericField, Float64Array>>;
  readonly names: readonly string[];
  readonly search: readonly string[];
  readonly cf: ReadonlyMap<number, CfColumn>;
  /** Each record's JSON without its closing brace and its `_embedded`, so `_links` and `_embedded` can be appended per request. */
  readonly json: readonly string[];
  /** What each record keeps of its `_embedded` (tags, links), rendered per request. */
  readonly embedded: readonly (RecordEmbedded | undefined)[];
}

const NUMBER_TYPES: readonly CfType[] = ['numeric', 'date', 'date_time'];
const TEXT_TYPES: readonly CfType[] = ['text', 'url', 'textarea', 'streetaddress'];
const ENUM_TYPES: readonly CfType[] = ['select', 'multiselect', 'radiobutton'];

export function buildTable(list: ListName, records: readonly ListRecord[], fields: readonly CustomFieldDef[]): ListTable {
  const sorted = [...records].sort((a, b) => a.id - b.id);
  const n = sorted.length;
  const indexById = new Map<number, number>();
  const ids = new Float64Array(n);
  const num = Object.fromEntries(NUMERIC_FIELDS.map((k) => [k, new Float64Array(n).fill(Number.NaN)])) as Record<NumericField, Float64Array>;
  const cf = new Map<number, CfColumn>();
  for (const def of fields) {
    if (NUMBER_TYPES.includes(def.type)) cf.set(def.id, { def, nums: new Float64Array(n).fill(Number.NaN) });
    else if (TEXT_TYPES.includes(def.type)) cf.set(def.id, { def, strs: new Array<string | undefined>(n) });
    else if (ENUM_TYPES.includes(def.type)) cf.set(def.id, { def, enums: new Array<number[] | undefined>(n) });
    else cf.set(def.id, { def, bools: new Int8Array(n).fill(-1) });
  }
  const names: string[] = [];
  const search: string[] = [];
  const json: string[] = [];
  const embeddedOf: (RecordEmbedded | undefined)[] = [];
  sorted.forEach((r, i) => {
    indexById.set(r.id, i);
    ids[i] = r.id;
    for (const k of NUMERIC_FIELDS) {
      const v = (r as unknown as Record<string, unknown>)[k];
      if (typeof v === 'number') num[k][i] = v;
    }
    names.push(r.name);
    const text = [r.name];
    for (const v of r.custom_fields_values ?? []) {
      const col = cf.get(v.field_id);
      if (!col) continue;
      const first = v.values[0]?.value;
      if (col.nums) col.nums[i] = Number(first);
      else if (col.strs) { (col.strs as (string | undefined)[])[i] = String(first); text.push(String(first)); }
      else if (col.enums) (col.enums as (number[] | undefined)[])[i] = v.values.map((x) => x.enum_id!).filter((x) => x !== undefined);
      else if (col.bools) col.bools[i] = first === true ? 1 : 0;
    }
    search.push(text.join('\n').toLowerCase());
    const { _embedded: embedded, ...fields } = r;
    json.push(JSON.stringify(fields).slice(0, -1));
    embeddedOf.push(embedded);
  });
  return { list, records: sorted, size: n, indexById, ids, num, names, search, cf, json, embedded: embeddedOf };
}
