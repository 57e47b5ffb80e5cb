/**
 * Writes to the four lists, as the live service's public reference serves them (docs/emulator.md, "Lists and
 * records"): `POST /api/v4/<list>` takes an array of records and answers each new id with its `request_id`;
 * `PATCH /api/v4/<list>` takes an array of changes, each naming its `id`; `PATCH /api/v4/<list>/<id>` takes one
 * change. Fields the list does not take (read-only ones a client echoes back: `account_id`, `is_deleted`, `_links`,
 * ...) are ignored; a field it takes with a value of the wrong type, an unknown pipeline, status, user or custom field
 * is a 400 whose `validation-errors` name the element (`request_id`) and the path, as the live service answers.
 * `custom_fields_values` merges by field: a named field's values replace that field's, `values: null` clears it, and
 * fields left out keep their values (the official PHP client clears one field with `values: null`, which only makes
 * sense so). Date fields take Unix seconds or an RFC 3339 string (that client's `DateCustomFieldValueModel::toApi()`
 * sends the latter) and are kept, and read, as seconds. Contacts take `first_name` and `last_name`; a contact named by
 * them alone gets them joined as its `name`. Tags are kept: `_embedded.tags` (`[{id} | {name}]`, as the public
 * clients send them) replaces a record's tags, `tags_to_add` and `tags_to_delete` (the PHP client's) change them; a
 * name no tag of the list has makes a new tag. A new record takes links to records of other lists in `_embedded`
 * (`contacts`, `companies`), as the PHP client sends them on creation only; a change's links are ignored (the live
 * service links existing records through its link endpoint, which the emulator does not serve).
 * Nothing here reads the spec: §2.12 leaves the records' fields open.
 */
import type { Catalog, CfType, CfValue, CfValueItem, CustomFieldDef, ListName, ListRecord, RecordEmbedded, RecordLink, Tag } from './data.js';

/** Records per write request: the live service's ceiling for a batch. */
export const MAX_BATCH = 250;

export interface FieldError { readonly code: string; readonly path: string; readonly detail: string }
export interface ElementErrors { readonly request_id: string; readonly errors: FieldError[] }

/** A 400 with the live service's `validation-errors` array. */
export class ValidationFailure extends Error {
  constructor(readonly detail: string, readonly elements: readonly ElementErrors[] = []) {
    super(detail);
  }
}

export interface WriteContext {
  readonly list: ListName;
  readonly catalog: Catalog;
  readonly nowSeconds: number;
  readonly userId: number;
  readonly accountId: number;
  readonly tags: TagBook;
  /** Whether `list` holds a record of this id: what a link must name. */
  readonly exists: (list: ListName, id: number) => boolean;
}

/** Ids of tags made by writes start above this. */
const TAG_ID_FLOOR = 500_000;

/** The list's tags as one request sees them: the catalog's, and the ones it makes (kept only if the request is taken). */
export class TagBook {
  readonly added: Tag[] = [];
  constructor(private readonly known: readonly Tag[]) {}

  byId(id: number): Tag | undefined {
    return this.known.find((t) => t.id === id) ?? this.added.find((t) => t.id === id);
  }

  /** The tag of this name, made when the list has none. */
  byName(name: string): Tag {
    const found = this.known.find((t) => t.name === name) ?? this.added.find((t) => t.name === name);
    if (found) return found;
    const id = Math.max(TAG_ID_FLOOR, ...this.known.map((t) => t.id), ...this.added.map((t) => t.id)) + 1;
    const made: Tag = { id, name, color: null };
    this.added.push(made);
    return made;
  }
}

type Mutable = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** The elements of a batch body: an array of 1 to MAX_BATCH objects. */
export function batchOf(body: unknown, what: string): Record<string, unknown>[] {
  if (!Array.isArray(body)) throw new ValidationFailure(`the body must be a JSON array of ${what} (at most ${MAX_BATCH})`);
  if (body.length === 0 || body.length > MAX_BATCH) throw new ValidationFailure(`the body must hold 1 to ${MAX_BATCH} ${what}; it holds ${body.length}`);
  const bad = body.findIndex((e) => !isObject(e));
  if (bad >= 0) throw new ValidationFailure(`element ${bad} of the body is not an object`);
  return body as Record<string, unknown>[];
}

/** The `request_id` an answer names an element by: the one the client sent, else its index. */
export function requestIdOf(element: Record<string, unknown>, index: number): string {
  const given = element.request_id;
  return typeof given === 'string' || isInt(given) ? String(given) : String(index);
}

/**
 * Applies `input` (one element of a create or update body) onto `record` (a new record's defaults, or the stored
 * record), collecting every field error of the element.
 */
export function applyFields(w: WriteContext, record: Mutable, input: Record<string, unknown>, errors: FieldError[]): void {
  const fail = (path: string, detail: string, code = 'FieldIsInvalid') => { errors.push({ code, path, detail }); };
  const given = (k: string) => Object.hasOwn(input, k) && input[k] !== null && input[k] !== undefined;
  if (given('name')) {
    const name = input.name;
    if (typeof name !== 'string' || name.length > 255) fail('name', 'must be a string of at most 255 characters');
    else record.name = name;
  }
  if (w.list === 'contacts') applyContactNames(record, input, fail, given);
  for (const k of ['created_at', 'updated_at'] as const) {
    if (!given(k)) continue;
    if (isInt(input[k]) && (input[k] as number) >= 0) record[k] = input[k];
    else fail(k, 'must be a timestamp');
  }
  for (const k of ['responsible_user_id', 'created_by', 'updated_by'] as const) {
    if (!given(k)) continue;
    const v = input[k];
    // 0 is "the API" as author, as the live service accepts it.
    if (isInt(v) && (v === 0 || w.catalog.users.some((u) => u.id === v))) record[k] = v;
    else fail(k, 'must be the id of a user of the account', 'NotSupportedChoice');
  }
  if (w.list === 'leads') applyLeadFields(w, record, input, fail, given);
  if (w.list === 'customers') applyCustomerFields(w, record, input, fail, given);
  applyTags(w, record, input, fail, given);
  if (given('custom_fields_values')) {
    const defs = w.catalog.custom_fields[w.list];
    const named = customFieldValues(defs, input.custom_fields_values, fail);
    if (named !== undefined) {
      const merged = mergeCustomFields(defs, (record.custom_fields_values ?? []) as readonly CfValue[], named);
      record.custom_fields_values = merged.length > 0 ? merged : null;
    }
  }
}

/**
 * A contact's `first_name` and `last_name` (strings, '' when unset). Without a `name` in the same write, the name
 * becomes the two joined, as the live service composes it, so a contact created by first and last name alone is
 * not "Contact #id".
 */
function applyContactNames(record: Mutable, input: Record<string, unknown>, fail: Fail, given: (k: string) => boolean): void {
  let named = false;
  for (const k of ['first_name', 'last_name'] as const) {
    if (!given(k)) continue;
    const v = input[k];
    if (typeof v !== 'string' || v.length > 255) { fail(k, 'must be a string of at most 255 characters'); continue; }
    record[k] = v;
    named = true;
  }
  if (named && !given('name')) record.name = [record.first_name, record.last_name].filter((x) => typeof x === 'string' && x !== '').join(' ');
}

/** `_embedded.tags` sets the record's tags; `tags_to_add` and `tags_to_delete` change them. */
function applyTags(w: WriteContext, record: Mutable, input: Record<string, unknown>, fail: Fail, given: (k: string) => boolean): void {
  const held = (record._embedded as RecordEmbedded | undefined)?.tags ?? [];
  let tags = held;
  const embedded = isObject(input._embedded) ? input._embedded : undefined;
  if (embedded && embedded.tags !== undefined && embedded.tags !== null) tags = tagsNamed(w.tags, embedded.tags, '_embedded.tags', fail) ?? tags;
  if (given('tags_to_add')) {
    const added = tagsNamed(w.tags, input.tags_to_add, 'tags_to_add', fail) ?? [];
    tags = [...tags, ...added.filter((t) => !tags.some((x) => x.id === t.id))];
  }
  if (given('tags_to_delete')) {
    const raw = input.tags_to_delete;
    if (!Array.isArray(raw)) fail('tags_to_delete', 'must be an array of {id} or {name}');
    else tags = tags.filter((t) => !raw.some((x) => isObject(x) && (x.id === t.id || x.name === t.name)));
  }
  if (tags !== held) setEmbedded(record, 'tags', tags);
}

/** Sets one member of what the record keeps of `_embedded` (none when empty), keeping the others. */
function setEmbedded(record: Mutable, key: keyof RecordEmbedded, value: readonly unknown[]): void {
  const kept: Record<string, unknown> = { ...(record._embedded as RecordEmbedded | undefined) };
  if (value.length > 0) kept[key] = value;
  else delete kept[key];
  if (Object.keys(kept).length > 0) record._embedded = kept;
  else delete record._embedded;
}

/** The links a new record of each list takes, and how many of each (a lead, a contact, a customer: one company). */
const LINKS: Record<ListName, Partial<Record<'contacts' | 'companies', number>>> = {
  leads: { contacts: Number.POSITIVE_INFINITY, companies: 1 },
  contacts: { companies: 1 },
  companies: {},
  customers: { contacts: Number.POSITIVE_INFINITY, companies: 1 },
};

/**
 * A new record's links in `_embedded.contacts` and `_embedded.companies`: `[{id}]`, each a record of that list; the
 * first contact is the main one unless one says `is_main: true`.
 */
export function applyLinks(w: WriteContext, record: Mutable, input: Record<string, unknown>, errors: FieldError[]): void {
  const embedded = isObject(input._embedded) ? input._embedded : undefined;
  if (!embedded) return;
  for (const [key, most] of Object.entries(LINKS[w.list]) as ['contacts' | 'companies', number][]) {
    const raw = embedded[key];
    if (raw === undefined || raw === null) continue;
    const path = `_embedded.${key}`;
    if (!Array.isArray(raw)) { errors.push({ code: 'FieldIsInvalid', path, detail: 'must be an array of {id}' }); continue; }
    const links: RecordLink[] = [];
    raw.forEach((item, n) => {
      const id = isObject(item) && isInt(item.id) ? item.id : undefined;
      if (id === undefined || !w.exists(key, id)) errors.push({ code: 'NotSupportedChoice', path: `${path}.${n}.id`, detail: `names no record of ${key}` });
      else if (!links.some((l) => l.id === id)) links.push(key === 'contacts' ? { id, is_main: isObject(item) && item.is_main === true } : { id });
    });
    if (links.length > most) { errors.push({ code: 'FieldIsInvalid', path, detail: `a record of ${w.list} links at most ${most} of ${key}` }); continue; }
    if (key === 'contacts' && links.length > 0 && !links.some((l) => l.is_main)) links[0] = { ...links[0]!, is_main: true };
    setEmbedded(record, key, links);
  }
}

/** Tags named by id (one of the list's) or by name (made when new), each once. */
function tagsNamed(book: TagBook, raw: unknown, path: string, fail: Fail): Tag[] | undefined {
  if (!Array.isArray(raw)) { fail(path, 'must be an array of {id} or {name}'); return undefined; }
  const out: Tag[] = [];
  raw.forEach((item, n) => {
    const at = `${path}.${n}`;
    let tag: Tag | undefined;
    if (isObject(item) && isInt(item.id)) {
      tag = book.byId(item.id);
      if (!tag) fail(`${at}.id`, 'names no tag of this list', 'NotSupportedChoice');
    } else if (isObject(item) && typeof item.name === 'string' && item.name.trim() !== '' && item.name.length <= 255) {
      tag = book.byName(item.name);
    } else fail(at, 'must name a tag by id or by a name of 1 to 255 characters');
    if (tag && !out.some((t) => t.id === tag.id)) out.push(tag);
  });
  return out;
}

/** One named field of a write: its new values, or null to clear it. */
interface NamedField { readonly def: CustomFieldDef; readonly values: readonly CfValueItem[] | null }

/** The record's fields with the named ones replaced, cleared or added, in the catalog's order. */
function mergeCustomFields(defs: readonly CustomFieldDef[], held: readonly CfValue[], named: readonly NamedField[]): CfValue[] {
  const byId = new Map(held.map((v) => [v.field_id, v]));
  for (const { def, values } of named) {
    if (values === null) byId.delete(def.id);
    else byId.set(def.id, { field_id: def.id, field_name: def.name, field_code: def.code, field_type: def.type, values });
  }
  const order = new Map(defs.map((d, n) => [d.id, n]));
  return [...byId.values()].sort((a, b) => (order.get(a.field_id) ?? Infinity) - (order.get(b.field_id) ?? Infinity));
}

type Fail = (path: string, detail: string, code?: string) => void;

function applyLeadFields(w: WriteContext, record: Mutable, input: Record<string, unknown>, fail: Fail, given: (k: string) => boolean): void {
  if (given('price')) {
    if (isInt(input.price) && (input.price as number) >= 0) record.price = input.price;
    else fail('price', 'must be a non-negative integer');
  }
  const { pipelines } = w.catalog;
  let pipeline = pipelines.find((p) => p.id === record.pipeline_id) ?? pipelines.find((p) => p.is_main) ?? pipelines[0]!;
  if (given('pipeline_id')) {
    const found = isInt(input.pipeline_id) ? pipelines.find((p) => p.id === input.pipeline_id) : undefined;
    if (!found) { fail('pipeline_id', 'names no pipeline of the account', 'NotSupportedChoice'); return; }
    if (found.id !== pipeline.id && !given('status_id')) record.status_id = found.statuses[0]!.id;
    pipeline = found;
    record.pipeline_id = found.id;
  }
  if (given('status_id')) {
    const status = isInt(input.status_id) ? input.status_id : undefined;
    const inPipeline = pipeline.statuses.some((s) => s.id === status);
    // A status without a pipeline: the pipeline that has it (the two closing statuses are in every pipeline).
    const owner = inPipeline || given('pipeline_id') ? undefined : pipelines.find((p) => p.statuses.some((s) => s.id === status));
    if (!inPipeline && !owner) { fail('status_id', 'names no status of the pipeline', 'NotSupportedChoice'); return; }
    if (owner) record.pipeline_id = owner.id;
    record.status_id = status;
  }
  if (given('closed_at')) {
    if (isInt(input.closed_at) && (input.closed_at as number) >= 0) record.closed_at = input.closed_at;
    else fail('closed_at', 'must be a timestamp');
  } else if (record.status_id === 142 || record.status_id === 143) record.closed_at ??= w.nowSeconds;
  else record.closed_at = null;
}

function applyCustomerFields(w: WriteContext, record: Mutable, input: Record<string, unknown>, fail: Fail, given: (k: string) => boolean): void {
  if (given('next_price')) {
    if (isInt(input.next_price) && (input.next_price as number) >= 0) record.next_price = input.next_price;
    else fail('next_price', 'must be a non-negative integer');
  }
  if (given('next_date')) {
    if (isInt(input.next_date) && (input.next_date as number) >= 0) record.next_date = input.next_date;
    else fail('next_date', 'must be a timestamp');
  }
  if (given('status_id')) {
    if (isInt(input.status_id) && w.catalog.customer_statuses.some((s) => s.id === input.status_id)) record.status_id = input.status_id;
    else fail('status_id', 'names no customer status of the account', 'NotSupportedChoice');
  }
  if (given('periodicity')) {
    if (isInt(input.periodicity) && (input.periodicity as number) >= 0) record.periodicity = input.periodicity;
    else fail('periodicity', 'must be a non-negative integer (days between purchases)');
  }
}

const NUMBER_TYPES: readonly CfType[] = ['numeric'];
const TIME_TYPES: readonly CfType[] = ['date', 'date_time'];
const TEXT_TYPES: readonly CfType[] = ['text', 'url', 'textarea', 'streetaddress'];

/**
 * `custom_fields_values`: `[{ field_id, values: [{ value } | { enum_id }] | null }]`, each field of the list's
 * catalog, named by `field_id` (or, when that is null, by `field_code`, as the PHP client may send either).
 */
function customFieldValues(defs: readonly CustomFieldDef[], raw: unknown, fail: Fail): NamedField[] | undefined {
  if (!Array.isArray(raw)) { fail('custom_fields_values', 'must be an array'); return undefined; }
  const out: NamedField[] = [];
  raw.forEach((entry, n) => {
    const path = `custom_fields_values.${n}`;
    if (!isObject(entry)) { fail(path, 'must be an object with field_id and values'); return; }
    const def = isInt(entry.field_id) ? defs.find((d) => d.id === entry.field_id)
      : (entry.field_id ?? null) === null && typeof entry.field_code === 'string' ? defs.find((d) => d.code === entry.field_code) : undefined;
    if (!def) { fail(`${path}.field_id`, 'names no custom field of this list', 'NotSupportedChoice'); return; }
    if (entry.values === null) { out.push({ def, values: null }); return; }
    if (!Array.isArray(entry.values) || entry.values.length === 0) { fail(`${path}.values`, 'must be a non-empty array, or null to clear the field'); return; }
    const values: CfValueItem[] = [];
    entry.values.forEach((item, k) => {
      const at = `${path}.values.${k}`;
      const v = isObject(item) ? item : undefined;
      const value = cfValue(def, v);
      if (value === undefined) fail(at, `is not a value of a ${def.type} field`);
      else values.push(value);
    });
    out.push({ def, values });
  });
  return out;
}

/** RFC 3339 date-time, with its offset (`2021-03-01T00:00:00+03:00`, `...Z`, fractional seconds allowed). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A date field's value as Unix seconds: seconds as given, or an RFC 3339 string's instant. */
function timeValue(value: unknown): number | undefined {
  if (isInt(value)) return value >= 0 ? value : undefined;
  if (typeof value !== 'string' || !RFC3339.test(value)) return undefined;
  const ms = Date.parse(value.replace(' ', 'T'));
  return Number.isFinite(ms) && ms >= 0 ? Math.floor(ms / 1000) : undefined;
}

function cfValue(def: CustomFieldDef, item: Record<string, unknown> | undefined): CfValueItem | undefined {
  if (!item) return undefined;
  const { value } = item;
  if (def.enums) {
    const e = def.enums.find((x) => (isInt(item.enum_id) ? x.id === item.enum_id : x.value === value));
    return e ? { value: e.value, enum_id: e.id, enum_code: null } : undefined;
  }
  if (NUMBER_TYPES.includes(def.type)) {
    const n = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    return typeof n === 'number' && Number.isFinite(n) ? { value: n } : undefined;
  }
  if (TIME_TYPES.includes(def.type)) {
    const seconds = timeValue(value);
    return seconds === undefined ? undefined : { value: seconds };
  }
  if (TEXT_TYPES.includes(def.type)) return typeof value === 'string' && value.length <= 65_000 ? { value } : undefined;
  return typeof value === 'boolean' ? { value } : undefined; // checkbox
}

/** A new record's defaults before the client's fields apply: the live service's defaults for each list. */
export function newRecord(w: WriteContext, id: number): Mutable {
  const record: Mutable = {
    id,
    name: '',
    responsible_user_id: w.userId,
    group_id: 0,
    created_by: w.userId,
    updated_by: w.userId,
    created_at: w.nowSeconds,
    updated_at: w.nowSeconds,
    closest_task_at: null,
    is_deleted: false,
    custom_fields_values: null,
    account_id: w.accountId,
  };
  if (w.list === 'leads') {
    const main = w.catalog.pipelines.find((p) => p.is_main) ?? w.catalog.pipelines[0]!;
    Object.assign(record, { price: 0, status_id: main.statuses[0]!.id, pipeline_id: main.id, closed_at: null });
  }
  if (w.list === 'customers') {
    Object.assign(record, { next_price: 0, next_date: w.nowSeconds, status_id: w.catalog.customer_statuses[0]!.id, periodicity: 0, ltv: 0, purchases_count: 0, average_check: 0 });
  }
  if (w.list === 'contacts') Object.assign(record, { first_name: '', last_name: '' });
  return record;
}

/** The name the live service gives a record created without one. */
export function defaultName(list: ListName, id: number): string {
  const noun = { leads: 'Lead', contacts: 'Contact', companies: 'Company', customers: 'Customer' }[list];
  return `${noun} #${id}`;
}

/** Field order as the list endpoints serve records (the seeded records' order), whatever order the writes set them in. */
export function inRecordOrder(list: ListName, record: Mutable): ListRecord {
  const own = list === 'leads' ? ['price', 'status_id', 'pipeline_id', 'closed_at']
    : list === 'customers' ? ['next_price', 'next_date', 'status_id', 'periodicity', 'ltv', 'purchases_count', 'average_check'] : [];
  const names = list === 'contacts' ? ['first_name', 'last_name'] : [];
  const keys = ['id', 'name', ...names, 'responsible_user_id', 'group_id', 'created_by', 'updated_by', 'created_at', 'updated_at', 'closest_task_at', 'is_deleted', ...own, 'custom_fields_values', 'account_id', '_embedded'];
  const out: Mutable = {};
  for (const k of keys) if (Object.hasOwn(record, k)) out[k] = record[k];
  return out as unknown as ListRecord;
}
