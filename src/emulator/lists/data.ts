/**
 * The records behind the four list endpoints of §4.2, made by @faker-js/faker from a seed: the same seed gives the
 * same data set on every platform. One catalog (users, pipelines and their statuses, customer statuses, custom fields
 * of every type of §4.2's table with enum ids) and, per list, records in the shape the live service returns
 * (docs/field-notes.md), without `_links` (added per request, from the host the client called).
 */
import { Faker, en } from '@faker-js/faker';

export const LIST_NAMES = ['leads', 'contacts', 'companies', 'customers'] as const;
export type ListName = (typeof LIST_NAMES)[number];

export function isListName(name: string): name is ListName {
  return (LIST_NAMES as readonly string[]).includes(name);
}

/** Every custom field type of §4.2's value table. */
export const CF_TYPES = ['numeric', 'text', 'url', 'textarea', 'streetaddress', 'select', 'multiselect', 'radiobutton', 'checkbox', 'date', 'date_time'] as const;
export type CfType = (typeof CF_TYPES)[number];

export interface EnumValue { readonly id: number; readonly value: string }

export interface CustomFieldDef {
  readonly id: number;
  readonly name: string;
  readonly code: string | null;
  readonly type: CfType;
  readonly enums?: readonly EnumValue[];
}

export interface Status { readonly id: number; readonly name: string }
export interface Pipeline { readonly id: number; readonly name: string; readonly is_main: boolean; readonly statuses: readonly Status[] }
export interface CatalogUser { readonly id: number; readonly name: string }

/** A tag of one list's records (each list has its own tags, as in the live service). */
export interface Tag { readonly id: number; readonly name: string; readonly color: null }

export interface Catalog {
  readonly users: readonly CatalogUser[];
  readonly pipelines: readonly Pipeline[];
  readonly customer_statuses: readonly Status[];
  readonly custom_fields: Record<ListName, readonly CustomFieldDef[]>;
  /** Tags made by writes; the seeded records have none. */
  readonly tags: Record<ListName, readonly Tag[]>;
}

export interface CfValueItem { readonly value: string | number | boolean; readonly enum_id?: number; readonly enum_code?: null }
export interface CfValue {
  readonly field_id: number;
  readonly field_name: string;
  readonly field_code: string | null;
  readonly field_type: CfType;
  readonly values: readonly CfValueItem[];
}

/** A record as the list endpoints return it (minus `_links`); leads and customers carry their own extra fields. */
export interface ListRecord {
  readonly id: number;
  readonly name: string;
  readonly responsible_user_id: number;
  readonly group_id: number;
  readonly created_by: number;
  readonly updated_by: number;
  readonly created_at: number;
  readonly updated_at: number;
  readonly closest_task_at: number | null;
  readonly is_deleted: boolean;
  readonly custom_fields_values: readonly CfValue[] | null;
  readonly account_id: number;
  readonly price?: number;
  readonly status_id?: number;
  readonly pipeline_id?: number;
  readonly closed_at?: number | null;
  readonly next_price?: number;
  readonly next_date?: number;
  readonly periodicity?: number;
  readonly ltv?: number;
  readonly purchases_count?: number;
  readonly average_check?: number;
  readonly first_name?: string;
  readonly last_name?: string;
  /** What a record keeps of its `_embedded`; the list endpoints add the other members (./routes.ts). */
  readonly _embedded?: RecordEmbedded;
}

/** A link from a record to a record of another list, as its `_embedded` names it (`is_main` on contacts). */
export interface RecordLink { readonly id: number; readonly is_main?: boolean }

export interface RecordEmbedded {
  readonly tags?: readonly Tag[];
  readonly contacts?: readonly RecordLink[];
  readonly companies?: readonly RecordLink[];
}

export interface DataSet {
  readonly seed: number;
  readonly catalog: Catalog;
  readonly records: Record<ListName, readonly ListRecord[]>;
}

/** Records per list at start: enough for several pages and for every filter to have matches and misses. */
export const DEFAULT_RECORD_COUNT = 300;
/** Ceiling of a reseed, per list (scale tests compare 10,000 with 100,000). */
export const MAX_RECORD_COUNT = 100_000;

/** The data is anchored on a fixed instant, not the clock: the records existed before the run. */
const T0 = 1_700_000_000;
const DAY = 86_400;
/** Won and lost: the two closing statuses every pipeline shares (their ids repeat across pipelines). */
const WON = 142;
const LOST = 143;

/**
 * Every RESTRICTED_SHARE-th record of each list is the restricted user's (docs/emulator.md, "Users with rights"): some deals at any
 * record count from 3 up, most of them another user's.
 */
const RESTRICTED_SHARE = 8;

export interface DataSetOptions {
  readonly accountId: number;
  readonly adminId: number;
  /** A user who may see only his own deals (src/emulator/world.ts): he is responsible for every RESTRICTED_SHARE-th deal. */
  readonly restrictedUser?: CatalogUser;
  readonly lists?: readonly ListName[];
}

export function generateDataSet(seed: number, count: number, options: DataSetOptions): DataSet {
  const f = new Faker({ locale: [en] });
  f.seed(seed);
  const drawn = generateCatalog(f, options.adminId);
  // Added after the draws and outside the pool records draw users from, so the seed's other values stay as they were.
  const catalog = options.restrictedUser ? { ...drawn, users: [...drawn.users, options.restrictedUser] } : drawn;
  const wanted = new Set(options.lists ?? LIST_NAMES);
  const records = {} as Record<ListName, ListRecord[]>;
  for (const list of LIST_NAMES) {
    // Each list draws from its own stream, so reseeding one list leaves the others as the seed made them.
    const lf = new Faker({ locale: [en] });
    lf.seed(seed * 31 + LIST_NAMES.indexOf(list) + 1);
    records[list] = wanted.has(list) ? generateRecords(lf, list, count, drawn, options.accountId) : [];
  }
  const restricted = options.restrictedUser;
  // His records in every list, not only deals: the rights narrow all four lists (issue 39).
  if (restricted) for (const list of LIST_NAMES) records[list] = records[list].map((r, i) => (i % RESTRICTED_SHARE === 2 ? { ...r, responsible_user_id: restricted.id } : r));
  return { seed, catalog, records };
}

function generateCatalog(f: Faker, adminId: number): Catalog {
  const users: CatalogUser[] = [{ id: adminId, name: 'Emulated Administrator' }];
  const userIds = new Set([adminId]);
  while (users.length < 40) {
    const id = f.number.int({ min: 1_000_000, max: 9_999_999 });
    if (!userIds.has(id)) { userIds.add(id); users.push({ id, name: f.person.fullName() }); }
  }
  let statusId = 40_000_000 + f.number.int({ min: 0, max: 999_999 });
  const pipelines: Pipeline[] = [0, 1, 2, 3, 4].map((i) => ({
    id: 7_000_000 + i * 1_013 + f.number.int({ min: 0, max: 999 }),
    name: i === 0 ? 'Sales' : `${f.commerce.department()} pipeline`,
    is_main: i === 0,
    statuses: [
      ...Array.from({ length: 4 }, () => ({ id: (statusId += f.number.int({ min: 1, max: 50 })), name: f.word.adjective() })),
      { id: WON, name: 'Closed - won' },
      { id: LOST, name: 'Closed - lost' },
    ],
  }));
  const customer_statuses: Status[] = Array.from({ length: 8 }, () => ({ id: (statusId += f.number.int({ min: 1, max: 50 })), name: f.word.noun() }));
  let fieldId = 600_000 + f.number.int({ min: 0, max: 99_999 });
  let enumId = 900_000 + f.number.int({ min: 0, max: 99_999 });
  const fieldsOf = (): CustomFieldDef[] =>
    CF_TYPES.map((type) => {
      const id = (fieldId += f.number.int({ min: 1, max: 20 }));
      const base = { id, name: `${type.replace('_', ' ')} field`, code: null, type };
      if (type !== 'select' && type !== 'multiselect' && type !== 'radiobutton') return base;
      return { ...base, enums: Array.from({ length: 8 }, () => ({ id: (enumId += f.number.int({ min: 1, max: 9 })), value: f.color.human() })) };
    });
  return {
    users, pipelines, customer_statuses,
    custom_fields: { leads: fieldsOf(), contacts: fieldsOf(), companies: fieldsOf(), customers: fieldsOf() },
    tags: { leads: [], contacts: [], companies: [], customers: [] },
  };
}

/** Small pools, so that one filter value matches several records and several values overlap. */
function pools(f: Faker) {
  return {
    text: Array.from({ length: 12 }, () => f.lorem.words({ min: 1, max: 2 })),
    url: Array.from({ length: 12 }, () => f.internet.url()),
    textarea: Array.from({ length: 12 }, () => f.lorem.sentence({ min: 2, max: 5 })),
    streetaddress: Array.from({ length: 12 }, () => f.location.streetAddress()),
    numeric: Array.from({ length: 40 }, () => f.number.int({ min: 0, max: 2_000 })),
    date: Array.from({ length: 30 }, () => Math.floor((T0 - f.number.int({ min: 0, max: 700 }) * DAY) / DAY) * DAY),
  };
}

function generateRecords(f: Faker, list: ListName, count: number, catalog: Catalog, accountId: number): ListRecord[] {
  const p = pools(f);
  const nameCount = Math.max(10, Math.ceil(count / 3));
  const names = Array.from({ length: nameCount }, () => nameFor(f, list));
  const userIds = catalog.users.map((u) => u.id);
  const fields = catalog.custom_fields[list];
  const out: ListRecord[] = [];
  let id = { leads: 20_000_000, contacts: 30_000_000, companies: 40_000_000, customers: 50_000_000 }[list] + f.number.int({ min: 0, max: 99_999 });
  for (let i = 0; i < count; i += 1) {
    id += f.number.int({ min: 1, max: 7 });
    const createdAt = T0 - f.number.int({ min: 0, max: 730 * DAY });
    const updatedAt = Math.min(T0, createdAt + f.number.int({ min: 0, max: 90 * DAY }));
    const name = f.helpers.arrayElement(names);
    const record: Record<string, unknown> = {
      id,
      name,
      // Split from the full name, drawing nothing: the seeded data stays what the seed made before contacts had them.
      ...(list === 'contacts' ? { first_name: name.split(' ')[0]!, last_name: name.split(' ').slice(1).join(' ') } : {}),
      responsible_user_id: f.helpers.arrayElement(userIds),
      group_id: 0,
      created_by: f.helpers.arrayElement(userIds),
      updated_by: f.helpers.arrayElement(userIds),
      created_at: createdAt,
      updated_at: updatedAt,
      closest_task_at: f.datatype.boolean(0.35) ? null : T0 + f.number.int({ min: -30 * DAY, max: 60 * DAY }),
      is_deleted: false,
    };
    if (list === 'leads') {
      const pipeline = f.helpers.arrayElement(catalog.pipelines);
      const status = f.helpers.arrayElement(pipeline.statuses);
      record.price = f.number.int({ min: 0, max: 2_000 }) * 100;
      record.status_id = status.id;
      record.pipeline_id = pipeline.id;
      record.closed_at = status.id === WON || status.id === LOST ? updatedAt : null;
    }
    if (list === 'customers') {
      record.next_price = f.number.int({ min: 0, max: 1_000 }) * 50;
      record.next_date = T0 + f.number.int({ min: 0, max: 180 * DAY });
      record.status_id = f.helpers.arrayElement(catalog.customer_statuses).id;
      // Derived from what was drawn (no draw of their own), so the seed's other values stay as they were.
      const purchases = id % 7;
      Object.assign(record, { periodicity: (id % 4) * 7, ltv: purchases * (record.next_price as number), purchases_count: purchases, average_check: purchases > 0 ? record.next_price : 0 });
    }
    const cfv: CfValue[] = [];
    for (const field of fields) {
      if (!f.datatype.boolean(0.3)) continue;
      const values = valuesFor(f, field, p);
      cfv.push({ field_id: field.id, field_name: field.name, field_code: field.code, field_type: field.type, values });
    }
    record.custom_fields_values = cfv.length > 0 ? cfv : null;
    record.account_id = accountId;
    out.push(record as unknown as ListRecord);
  }
  return out;
}

function nameFor(f: Faker, list: ListName): string {
  switch (list) {
    case 'leads': return `${f.commerce.productName()} deal`;
    case 'contacts': return f.person.fullName();
    case 'companies': return f.company.name();
    case 'customers': return `${f.company.name()} account`;
  }
}

function valuesFor(f: Faker, field: CustomFieldDef, p: ReturnType<typeof pools>): CfValueItem[] {
  const enumItem = (e: EnumValue): CfValueItem => ({ value: e.value, enum_id: e.id, enum_code: null });
  switch (field.type) {
    case 'numeric': return [{ value: f.helpers.arrayElement(p.numeric) }];
    case 'text': return [{ value: f.helpers.arrayElement(p.text) }];
    case 'url': return [{ value: f.helpers.arrayElement(p.url) }];
    case 'textarea': return [{ value: f.helpers.arrayElement(p.textarea) }];
    case 'streetaddress': return [{ value: f.helpers.arrayElement(p.streetaddress) }];
    case 'select':
    case 'radiobutton': return [enumItem(f.helpers.arrayElement(field.enums!))];
    case 'multiselect': return f.helpers.arrayElements(field.enums!, { min: 1, max: 3 }).map(enumItem);
    case 'checkbox': return [{ value: f.datatype.boolean() }];
    case 'date': return [{ value: f.helpers.arrayElement(p.date) }];
    case 'date_time': return [{ value: T0 - f.number.int({ min: 0, max: 700 * DAY }) }];
  }
}
