/**
 * The list data of one emulator instance, shared by the list routes and the control API. At start it holds the
 * default data set (DEFAULT_RECORD_COUNT records per list, seeded from the world's seed through the account id, so
 * `startEmulator({ seed })` gives the same records every time); a reseed replaces it; writes through the list
 * endpoints change it; a control reset restores it (or the data of the marked baseline) and the paid filter switch.
 */
import type { EmulatorContext } from '../context.js';
import { DEFAULT_RECORD_COUNT, LIST_NAMES, generateDataSet, type DataSet, type DataSetOptions, type ListName, type ListRecord, type Tag } from './data.js';
import { buildTable, type ListTable } from './table.js';
import { deepFreeze } from '../deep-freeze.js';

/** Records per list of the other account: enough ids to filter by, few enough to cost nothing at start. */
const OTHER_ACCOUNT_RECORDS = 40;

/** A data set with its lists' tables: both treated as values (a write makes new ones), so one can serve many instances. */
interface Prepared {
  readonly data: DataSet;
  readonly tables: Readonly<Record<ListName, ListTable>>;
}

/**
 * Data sets already generated, by what made them. Generating and indexing the 1,200 records of a start costs about a
 * fifth of a second, and a process starts many instances from the same seed (the fault tests start one per fault, each
 * identical at start); the set is a pure function of its inputs and is frozen, so sharing it cannot carry one instance's
 * writes into another. A few sets are kept: a reseed with a new count or seed makes another.
 */
const PREPARED = new Map<string, Prepared>();
const PREPARED_KEPT = 8;

function prepared(seed: number, count: number, options: DataSetOptions): Prepared {
  const key = JSON.stringify([seed, count, options.accountId, options.adminId, options.restrictedUser ?? null, options.lists ?? null]);
  let hit = PREPARED.get(key);
  if (!hit) {
    const data = deepFreeze(generateDataSet(seed, count, options));
    hit = { data, tables: tablesOf(data) };
    if (PREPARED.size >= PREPARED_KEPT) PREPARED.delete(PREPARED.keys().next().value!);
    PREPARED.set(key, hit);
  }
  return hit;
}

function tablesOf(data: DataSet): Record<ListName, ListTable> {
  const tables = {} as Record<ListName, ListTable>;
  for (const list of LIST_NAMES) tables[list] = buildTable(list, data.records[list], data.catalog.custom_fields[list]);
  return tables;
}

export class ListStore {
  #data!: DataSet;
  /** What a control reset restores: the default data set made at start, or the data when the baseline was marked. */
  #baseline!: Prepared;
  #tables!: Record<ListName, ListTable>;
  #other: Prepared | undefined;

  constructor(private readonly ctx: EmulatorContext) {
    this.reseed(this.defaultSeed, DEFAULT_RECORD_COUNT);
    this.markBaseline();
  }

  /** The seed of the start data: derived from the world, which the emulator seed makes reproducible. */
  get defaultSeed(): number {
    return this.ctx.world.account.id % 1_000_000_007;
  }

  get data(): DataSet {
    return this.#data;
  }

  table(list: ListName): ListTable {
    return this.#tables[list];
  }

  /** Replaces the data set; `lists` limits which lists get records (the others are left empty). */
  reseed(seed: number, count: number, lists?: readonly ListName[]): DataSet {
    const { account, admin, restrictedUser } = this.ctx.world;
    const restricted = { id: restrictedUser.id, name: restrictedUser.name };
    const { data, tables } = prepared(seed, count, { accountId: account.id, adminId: admin.id, restrictedUser: restricted, ...(lists ? { lists } : {}) });
    this.#data = data;
    this.#tables = { ...tables };
    return data;
  }

  #setData(data: DataSet): void {
    this.#data = data;
    this.#tables = tablesOf(data);
  }

  /**
   * Adds one record named `name` to a list (a copy of its first record under a new id): the control API's way to give
   * the list a record a rule names, such as a non-ASCII name (§4.2). The list must hold a record to copy.
   */
  addRecord(list: ListName, name: string): { readonly id: number; readonly name: string } | undefined {
    const records = this.#data.records[list];
    const model = records[0];
    if (!model) return undefined;
    const id = Math.max(...records.map((r) => r.id)) + 1;
    const grown = [...records, { ...structuredClone(model), id, name }];
    this.#data = { ...this.#data, records: { ...this.#data.records, [list]: grown } };
    this.#tables[list] = buildTable(list, grown, this.#data.catalog.custom_fields[list]);
    return { id, name };
  }

  /**
   * The records of another account of the same service, which this account's token must never reach (§4.2: a list
   * shows its own account's records). Made once, from another seed; ids a reseed shares with this account are
   * excluded by the rules that use them, not here.
   */
  otherAccount(): { readonly data: DataSet; table(list: ListName): ListTable } {
    if (!this.#other) {
      const { account, admin } = this.ctx.world;
      this.#other = prepared(this.defaultSeed + 7919, OTHER_ACCOUNT_RECORDS, { accountId: account.id + 1, adminId: admin.id });
    }
    const other = this.#other;
    return { data: other.data, table: (list) => other.tables[list] };
  }

  /**
   * Stores records made or changed through the list endpoints (./writes.ts): each replaces the record of its id or is
   * added, and the tags the writes made join the list's. The data set and the changed lists' tables are new objects,
   * never mutated, so a baseline stays as it was.
   */
  write(list: ListName, records: readonly ListRecord[], newTags: readonly Tag[] = []): void {
    const byId = new Map(this.#data.records[list].map((r) => [r.id, r]));
    for (const r of records) byId.set(r.id, r);
    const next = [...byId.values()];
    const { catalog } = this.#data;
    const tags = newTags.length > 0 ? { ...catalog, tags: { ...catalog.tags, [list]: [...catalog.tags[list], ...newTags] } } : catalog;
    this.#data = { ...this.#data, catalog: tags, records: { ...this.#data.records, [list]: next } };
    this.#tables = { ...this.#tables, [list]: buildTable(list, next, this.#data.catalog.custom_fields[list]) };
  }

  /** The id for a new record of `list`: above every record it holds (a batch takes this id and the ones after it). */
  nextId(list: ListName): number {
    let max = 0;
    for (const r of this.#data.records[list]) if (r.id > max) max = r.id;
    return max + 1;
  }

  /** Replaces the data set with a kept one (a state file), which also becomes what a control reset restores. */
  load(data: DataSet): void {
    this.#setData(data);
    this.markBaseline();
  }

  /** The current data becomes what a control reset restores. */
  markBaseline(): void {
    this.#baseline = { data: this.#data, tables: { ...this.#tables } };
  }

  /** Back to the baseline's data: the default data set made at start, or the data when the baseline was marked. */
  restoreDefault(): void {
    if (this.#data === this.#baseline.data) return;
    this.#data = this.#baseline.data;
    this.#tables = { ...this.#baseline.tables };
  }
}

const stores = new WeakMap<EmulatorContext, ListStore>();

/** The instance's list store, created on first use; a control reset restores the default data and the filter feature. */
export function listStore(ctx: EmulatorContext): ListStore {
  let store = stores.get(ctx);
  if (!store) {
    const created = new ListStore(ctx);
    store = created;
    stores.set(ctx, created);
    let filterEnabled = true;
    ctx.onBaseline(() => {
      created.markBaseline();
      filterEnabled = ctx.world.account.isApiFilterEnabled;
    });
    ctx.onReset(() => {
      created.restoreDefault();
      ctx.world.account.isApiFilterEnabled = filterEnabled;
    });
  }
  return store;
}
