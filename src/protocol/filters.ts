/**
 * The `filter[...]` language of §4.2 as the kit sends it: a filter is a list of clauses (one per parameter), encoded
 * into a query string with `qs` in each form public clients use (docs/field-notes.md): raw brackets (`filter[id][0]=1`, the
 * npm client) or percent-encoded ones (`filter%5Bid%5D%5B0%5D=1`, amocrm-js through qs), indexed `[0]` or repeated
 * `[]` arrays, and the scalar single form `filter[id]=1`. No bracket is written by hand.
 */
import qs from 'qs';
import type { TargetConfig } from '../model/target.js';
import type { HttpRequest } from '../model/http.js';

export const LISTS = ['leads', 'contacts', 'companies', 'customers'] as const;
export type ListName = (typeof LISTS)[number];

/** Lists that have `query` (§4.2 common table: deals, contacts and companies only). */
export const QUERY_LISTS: readonly ListName[] = ['leads', 'contacts', 'companies'];

export const CF_TYPES = ['numeric', 'text', 'url', 'textarea', 'streetaddress', 'select', 'multiselect', 'radiobutton', 'checkbox', 'date', 'date_time'] as const;
export type CfType = (typeof CF_TYPES)[number];
export const RANGE_CF_TYPES: readonly CfType[] = ['numeric', 'date', 'date_time'];
export const TEXT_CF_TYPES: readonly CfType[] = ['text', 'url', 'textarea', 'streetaddress'];
export const ENUM_CF_TYPES: readonly CfType[] = ['select', 'multiselect', 'radiobutton'];

/** Parameters whose values are alternatives (Multiple = yes), per list. */
export const COMMON_MULTIPLE = ['id', 'name', 'created_by', 'updated_by', 'responsible_user_id'] as const;
export const COMMON_RANGE = ['created_at', 'updated_at', 'closest_task_at'] as const;
export const LIST_MULTIPLE: Record<ListName, readonly string[]> = {
  leads: [...COMMON_MULTIPLE, 'pipeline_id'], contacts: COMMON_MULTIPLE, companies: COMMON_MULTIPLE, customers: [...COMMON_MULTIPLE, 'status_id'],
};
export const LIST_RANGE: Record<ListName, readonly string[]> = {
  leads: [...COMMON_RANGE, 'price', 'closed_at'], contacts: COMMON_RANGE, companies: COMMON_RANGE, customers: [...COMMON_RANGE, 'next_price', 'next_date'],
};
/** Range fields that also take a Single value (§4.2: `filter[next_price]` is "string or array" and a Range). */
export const SINGLE_OR_RANGE_FIELDS: readonly string[] = ['next_price'];
/** Integer-valued fields among the Multiple ones (the others, `name`, are strings). */
export const SINGLE_VALUED_INT_FIELDS = ['id', 'created_by', 'updated_by', 'responsible_user_id', 'pipeline_id', 'status_id'];

export type Scalar = string | number;

export type Clause =
  /** Single (one value) or Multiple (several, alternatives) of a plain parameter; `next_price` single too. */
  | { readonly kind: 'values'; readonly field: string; readonly values: readonly Scalar[] }
  | { readonly kind: 'range'; readonly field: string; readonly from?: number; readonly to?: number }
  | { readonly kind: 'statuses'; readonly pairs: readonly { readonly pipeline_id?: number; readonly status_id?: number }[] }
  | { readonly kind: 'cf-values'; readonly fieldId: number; readonly fieldType: CfType; readonly values: readonly Scalar[] }
  | { readonly kind: 'cf-range'; readonly fieldId: number; readonly fieldType: CfType; readonly from?: number; readonly to?: number };

export interface Encoding {
  /** `raw`: brackets unencoded, values encoded; `percent`: everything percent-encoded. */
  readonly brackets: 'raw' | 'percent';
  /** `indexed`: `[0]`, `[1]`; `brackets`: repeated `[]`. Statuses are always indexed (their elements have two keys). */
  readonly arrays: 'indexed' | 'brackets';
  /** A one-value Multiple parameter as `filter[id]=5` (`scalar`) or as a one-element array. */
  readonly single: 'scalar' | 'array';
}

export const DEFAULT_ENCODING: Encoding = { brackets: 'raw', arrays: 'indexed', single: 'scalar' };
export const ENCODINGS: readonly Encoding[] = [
  DEFAULT_ENCODING,
  { brackets: 'percent', arrays: 'indexed', single: 'scalar' },
  { brackets: 'raw', arrays: 'brackets', single: 'array' },
  { brackets: 'percent', arrays: 'brackets', single: 'array' },
  { brackets: 'raw', arrays: 'indexed', single: 'array' },
];

export function describeEncoding(e: Encoding): string {
  return `${e.brackets} brackets, ${e.arrays === 'indexed' ? '[0] arrays' : '[] arrays'}, single value ${e.single === 'scalar' ? 'as a scalar' : 'as an array'}`;
}

function rangeObject(from: number | undefined, to: number | undefined): Record<string, number> {
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** The `filter` value of one clause, as a nested object qs will stringify. */
function clauseObject(c: Clause, e: Encoding): Record<string, unknown> {
  const many = (values: readonly Scalar[]): unknown => (values.length === 1 && e.single === 'scalar' ? values[0] : [...values]);
  switch (c.kind) {
    case 'values': return { [c.field]: many(c.values) };
    case 'range': return { [c.field]: rangeObject(c.from, c.to) };
    case 'statuses': return { statuses: c.pairs.map((p) => ({ ...p })) };
    case 'cf-values': return { custom_fields_values: { [c.fieldId]: [...c.values] } };
    case 'cf-range': return { custom_fields_values: { [c.fieldId]: rangeObject(c.from, c.to) } };
  }
}

/** One clause as query-string parameters. */
export function encodeClause(c: Clause, e: Encoding = DEFAULT_ENCODING): string {
  return qs.stringify({ filter: clauseObject(c, e) }, {
    encodeValuesOnly: e.brackets === 'raw',
    arrayFormat: c.kind === 'statuses' ? 'indices' : e.arrays === 'indexed' ? 'indices' : 'brackets',
  });
}

/** The query string of a whole filter, clauses in the given order, then any other parameters (page, limit, query). */
export function encodeFilter(clauses: readonly Clause[], e: Encoding = DEFAULT_ENCODING, extra: Record<string, string | number> = {}): string {
  const parts = clauses.map((c) => encodeClause(c, e));
  const rest = qs.stringify(extra, { encodeValuesOnly: e.brackets === 'raw' });
  return [...parts, rest].filter(Boolean).join('&');
}

/** A readable one-line form of a filter, for findings: `filter[created_at][from]=1&filter[created_at][to]=2`. */
export function describeFilter(clauses: readonly Clause[]): string {
  return clauses.length === 0 ? '(no filter)' : decodeURIComponent(encodeFilter(clauses, { brackets: 'raw', arrays: 'indexed', single: 'scalar' }));
}

export function listUrl(target: TargetConfig, list: ListName, query: string): string {
  return `${target.baseUrl}/api/v4/${list}${query ? `?${query}` : ''}`;
}

export function listRequest(target: TargetConfig, bearer: string, list: ListName, query: string): HttpRequest {
  return { method: 'GET', url: listUrl(target, list, query), headers: { authorization: `Bearer ${bearer}` } };
}

export function accountFlagsRequest(target: TargetConfig, bearer: string): HttpRequest {
  return { method: 'GET', url: `${target.baseUrl}/api/v4/account?with=is_api_filter_enabled`, headers: { authorization: `Bearer ${bearer}` } };
}
