/**
 * `GET /api/v4/leads|contacts|companies|customers` (§4.2) in the live service's shape (docs/field-notes.md): HAL JSON with
 * `_page` and `_links` (`self` as called; `next` while more records follow; `first` and `prev` after the first page;
 * each built from the scheme and host the client called and keeping every other query parameter), `_embedded.<list>[]`
 * with each record's own `_links.self`, which `GET /api/v4/<list>/<id>` serves; `page` and `limit` paginate (default
 * 50, at most 250: a larger limit is lowered to 250); an empty result is 204 with an empty body; a bearer is required.
 * With the paid filter feature off, `filter` is ignored (as the live service is reported to do); `query` still works.
 * `order[<field>]=asc|desc` sorts (ORDER_FIELDS; anything else is a 400 naming it). `POST /api/v4/<list>` and `PATCH`
 * on the list and on a record create and update records (./writes.ts), in the live service's answer shapes. A token of
 * a user who may see only his own deals lists, reads and changes only those (./rights.ts).
 * Allowed variations (../variations.ts) change the shape where the spec shows none: `lists-empty-200`,
 * `lists-id-descending`, `lists-small-pages`, `lists-plain-json-no-links`, `lists-slow-filtered`, `lists-filters-any`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerAuth } from '../api/bearer.js';
import { linkBase, withSet } from '../api/links.js';
import { parseQuery } from '../body.js';
import type { EmulatorContext, RouteOptions } from '../context.js';
import { jsonBytes, methodNotAllowed, notServedDetail, PROBLEM_JSON, ProblemError, problemBody, sendProblem, toProblem } from '../errors.js';
import { LIST_NAMES, type ListName, type RecordEmbedded, type RecordLink } from './data.js';
import { compileFilter, searchTest, type Test } from './engine.js';
import { answerCacheIgnoringUser, beyondRights, namesBeyondRights, rightsTest } from './rights.js';
import { catalogRoutes } from './catalog.js';
import { listStore, type ListStore } from './store.js';
import type { ListTable } from './table.js';
import { applyFields, applyLinks, batchOf, defaultName, inRecordOrder, newRecord, requestIdOf, TagBook, ValidationFailure, type ElementErrors, type FieldError, type WriteContext } from './writes.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 250;
/** Page sizes under the `lists-small-pages` variation. */
const SMALL_DEFAULT_LIMIT = 10;
const SMALL_MAX_LIMIT = 20;
/** How long `lists-slow-filtered` holds the first filtered answer of each list. */
const SLOW_FILTERED_MS = 10_000;
const heldLists = new WeakMap<EmulatorContext, Set<ListName>>();

export async function listRoutes(app: FastifyInstance, { ctx }: RouteOptions): Promise<void> {
  if (!app.hasRequestDecorator('principal')) app.decorateRequest('principal', null);
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ValidationFailure) return sendValidationFailure(reply, err);
    const p = toProblem(err);
    if (p.status >= 500) request.log.error({ err }, 'unhandled emulator error');
    return sendProblem(reply, p, PROBLEM_JSON);
  });
  const store = listStore(ctx);
  // Only for the `lists-wrong-method-crash` fault: the router's fallback for another method throws.
  app.addHook('onRequest', async (request, reply) => {
    if (['GET', 'HEAD', 'POST', 'PATCH'].includes(request.method) || !/^\/api\/v4\/(leads|contacts|companies|customers)(\/|\?|$)/.test(request.url)) return undefined;
    if (ctx.faults.isOn('lists-wrong-method-crash')) throw new TypeError(`handlers[${JSON.stringify(request.method)}] is not a function`);
    // Only for the `lists-put-delete-no-op` fault: PUT and DELETE are taken for an empty batch and answered as done.
    if (ctx.faults.isOn('lists-put-delete-no-op')) return reply.code(204).send();
    return undefined;
  });
  catalogRoutes(app, ctx, store);
  for (const list of LIST_NAMES) {
    const path = `/api/v4/${list}`;
    app.get(path, { preHandler: bearerAuth(ctx) }, async (request, reply) => {
      if (list === 'customers' && ctx.faults.isOn('lists-customers-not-found')) throw new ProblemError({ status: 404, detail: 'Not found' });
      if (list === 'companies' && ctx.faults.isOn('lists-companies-not-found')) throw new ProblemError({ status: 404, detail: 'Not found' });
      const rawQuery = rawQueryOf(request.url);
      const query = queryOf(ctx, rawQuery, request.query);
      const url = `${linkBase(ctx, request)}${path}`;
      const withs = withSet(query);
      // The emulator deletes no record, so the deleted ones (`with=only_deleted`) are none.
      const cache = answerCacheIgnoringUser(ctx);
      let body = cache?.has(request.url) ? cache.get(request.url)
        : withs.has('only_deleted') ? undefined : listPage(ctx, list, query, rawQuery, url, store.table(list), withs, request.principal?.userId);
      cache?.set(request.url, body);
      // Only for the fault: a filter that finds nothing here is run over another account's records too.
      if (body === undefined && query.filter !== undefined && ctx.faults.isOn('lists-filter-other-account')) body = listPage(ctx, list, query, rawQuery, url, store.otherAccount().table(list), withs);
      if (query.filter !== undefined && ctx.variations.isOn('lists-slow-filtered')) await holdFirst(ctx, list);
      const plain = ctx.variations.isOn('lists-plain-json-no-links');
      if (body === undefined && ctx.variations.isOn('lists-empty-200')) body = emptyPage(list, query, rawQuery, url, plain);
      if (body === undefined) return reply.code(204).send();
      return reply.code(200).header('content-type', plain ? 'application/json; charset=utf-8' : 'application/hal+json; charset=utf-8').send(body);
    });
    app.post(path, { preHandler: bearerAuth(ctx) }, async (request, reply) => {
      const made = createRecords(ctx, store, list, request.principal?.userId, request.body);
      const base = `${linkBase(ctx, request)}${path}`;
      return hal(reply, { _links: { self: { href: base } }, _embedded: { [list]: made.map(({ id, requestId }) => ({ id, request_id: requestId, _links: { self: { href: `${base}/${id}` } } })) } });
    });
    app.patch(path, { preHandler: bearerAuth(ctx) }, async (request, reply) => {
      const changed = updateRecords(ctx, store, list, request.principal?.userId, batchOf(request.body, list), true);
      const base = `${linkBase(ctx, request)}${path}`;
      return hal(reply, { _links: { self: { href: base } }, _embedded: { [list]: changed.map(({ id, updatedAt, requestId }) => ({ id, updated_at: updatedAt, request_id: requestId, _links: { self: { href: `${base}/${id}` } } })) } });
    });
    methodNotAllowed(app, path, ['GET', 'POST', 'PATCH']);

    app.get<{ Params: { id: string } }>(`${path}/:id`, { preHandler: bearerAuth(ctx) }, async (request, reply) => {
      const table = store.table(list);
      const { id } = request.params;
      // A segment that is no id names a path (`/leads/notes`, `/leads/tags`): one the emulator does not serve.
      if (!/^\d+$/.test(id)) throw new ProblemError({ status: 404, detail: notServedDetail(request.method) });
      const i = /^\d{1,15}$/.test(id) ? table.indexById.get(Number(id)) : undefined;
      if (i === undefined) throw new ProblemError({ status: 404, detail: `No record of ${list} has this id` });
      if (beyondRights(ctx, list, table, request.principal?.userId, i)) throw new ProblemError({ status: 403, detail: `The token's user may not see this record of ${list}` });
      if (ctx.variations.isOn('lists-plain-json-no-links')) return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(`${table.json[i]}}`);
      const body = `${table.json[i]},"_links":{"self":{"href":${JSON.stringify(`${linkBase(ctx, request)}${path}/${table.ids[i]}`)}}},"_embedded":${embeddedOf(list, withSet(request.query), `${linkBase(ctx, request)}/api/v4`)(table.embedded[i])}}`;
      return reply.code(200).header('content-type', 'application/hal+json; charset=utf-8').send(body);
    });
    app.patch<{ Params: { id: string } }>(`${path}/:id`, { preHandler: bearerAuth(ctx) }, async (request, reply) => {
      const { id } = request.params;
      if (!/^\d+$/.test(id)) throw new ProblemError({ status: 404, detail: notServedDetail(request.method) });
      if (!/^\d{1,15}$/.test(id) || !store.table(list).indexById.has(Number(id))) throw new ProblemError({ status: 404, detail: `No record of ${list} has this id` });
      const body = request.body;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationFailure(`the body must be one JSON object of the fields to change`);
      const [changed] = updateRecords(ctx, store, list, request.principal?.userId, [{ ...(body as Record<string, unknown>), id: Number(id) }], false);
      return hal(reply, { id: changed!.id, updated_at: changed!.updatedAt, _links: { self: { href: `${linkBase(ctx, request)}${path}/${id}` } } });
    });
    methodNotAllowed(app, `${path}/:id`, ['GET', 'PATCH']);
  }
}

/**
 * Each record's `_embedded`, as the live service lists it: its `tags` on every list, `companies` on leads and
 * contacts, `segments` on customers, and the linked records a `with=` names (`contacts`, `companies`, `leads`,
 * `customers`, `catalog_elements`). The emulator keeps tags and the links a record was created with (./writes.ts),
 * each link with its `_links.self`; the reverse links (a contact's leads), catalog elements and segments are empty
 * arrays (docs/emulator.md, "What the emulator does not serve").
 */
const EMBEDDED: Record<ListName, { readonly always: readonly string[]; readonly withs: readonly string[] }> = {
  leads: { always: ['companies'], withs: ['contacts', 'catalog_elements'] },
  contacts: { always: ['companies'], withs: ['leads', 'customers', 'catalog_elements'] },
  companies: { always: [], withs: ['contacts', 'leads', 'customers', 'catalog_elements'] },
  customers: { always: ['segments'], withs: ['contacts', 'companies', 'catalog_elements'] },
};

/** The `_embedded` of a record of `list` read with `withs`, from what the record keeps (ListTable.embedded). */
export type Embedded = (kept: RecordEmbedded | undefined) => string;

/** `apiBase`: `<scheme://host[/_accounts/<subdomain>]>/api/v4`, which a link's `_links.self` starts with. */
export function embeddedOf(list: ListName, withs: ReadonlySet<string>, apiBase: string): Embedded {
  const { always, withs: optional } = EMBEDDED[list];
  const keys = [...always, ...optional.filter((w) => withs.has(w))];
  const linked = (k: string, links: readonly RecordLink[] | undefined): string => (links && links.length > 0
    ? JSON.stringify(links.map((l) => ({ ...l, _links: { self: { href: `${apiBase}/${k}/${l.id}` } } })))
    : '[]');
  const render = (kept: RecordEmbedded | undefined): string => {
    let out = `{"tags":${kept?.tags && kept.tags.length > 0 ? JSON.stringify(kept.tags) : '[]'}`;
    for (const k of keys) out += `,"${k}":${k === 'contacts' || k === 'companies' ? linked(k, kept?.[k]) : '[]'}`;
    return `${out}}`;
  };
  // Most records keep nothing: their `_embedded` is made once per page, not once per record.
  const bare = render(undefined);
  return (kept) => (kept === undefined ? bare : render(kept));
}

const hal = (reply: FastifyReply, body: unknown): FastifyReply =>
  reply.code(200).header('content-type', 'application/hal+json; charset=utf-8').send(JSON.stringify(body));

/** 400 problem+json with the live service's `validation-errors` (docs/field-notes.md). */
function sendValidationFailure(reply: FastifyReply, failure: ValidationFailure): FastifyReply {
  const body = { ...problemBody({ status: 400, detail: failure.detail }), ...(failure.elements.length > 0 ? { 'validation-errors': failure.elements } : {}) };
  return reply.code(400).header('content-type', PROBLEM_JSON).send(jsonBytes(body));
}

function writeContext(ctx: EmulatorContext, store: ListStore, list: ListName, userId: number | undefined): WriteContext {
  const { catalog } = store.data;
  return {
    list, catalog, nowSeconds: ctx.clock.nowSeconds(), userId: userId ?? ctx.world.admin.id, accountId: ctx.world.account.id,
    tags: new TagBook(catalog.tags[list]), exists: (other, id) => store.table(other).indexById.has(id),
  };
}

/** `POST /api/v4/<list>`: every element is made or none is (a field error anywhere refuses the whole batch). */
function createRecords(ctx: EmulatorContext, store: ListStore, list: ListName, userId: number | undefined, body: unknown): { id: number; requestId: string }[] {
  const elements = batchOf(body, list);
  const w = writeContext(ctx, store, list, userId);
  const first = store.nextId(list);
  const failures: ElementErrors[] = [];
  const made = elements.map((element, n) => {
    const errors: FieldError[] = [];
    const record = newRecord(w, first + n);
    applyFields(w, record, element, errors);
    applyLinks(w, record, element, errors);
    if (record.name === '') record.name = defaultName(list, first + n);
    const requestId = requestIdOf(element, n);
    if (errors.length > 0) failures.push({ request_id: requestId, errors });
    return { record: inRecordOrder(list, record), requestId };
  });
  if (failures.length > 0) throw new ValidationFailure('the request holds invalid fields', failures);
  store.write(list, made.map((m) => m.record), w.tags.added);
  return made.map((m) => ({ id: m.record.id, requestId: m.requestId }));
}

/** `PATCH /api/v4/<list>` and `/<list>/<id>`: each element names a record of the list by `id`; all change or none. */
function updateRecords(
  ctx: EmulatorContext, store: ListStore, list: ListName, userId: number | undefined, elements: readonly Record<string, unknown>[], batch: boolean,
): { id: number; updatedAt: number; requestId: string }[] {
  const w = writeContext(ctx, store, list, userId);
  const table = store.table(list);
  // A change of a record beyond the user's rights refuses the whole request (§5.1 item 2), before any field is read.
  for (const element of elements) {
    const i = typeof element.id === 'number' ? table.indexById.get(element.id) : undefined;
    if (i !== undefined && beyondRights(ctx, list, table, userId, i)) throw new ProblemError({ status: 403, detail: `The token's user may not change record ${element.id} of ${list}` });
  }
  const failures: ElementErrors[] = [];
  const changed = elements.map((element, n) => {
    const requestId = requestIdOf(element, n);
    const errors: FieldError[] = [];
    const i = typeof element.id === 'number' ? table.indexById.get(element.id) : undefined;
    if (i === undefined) {
      errors.push({ code: 'NotFound', path: 'id', detail: batch ? `names no record of ${list}` : 'no record has this id' });
      failures.push({ request_id: requestId, errors });
      return undefined;
    }
    const record = structuredClone(table.records[i]!) as unknown as Record<string, unknown>;
    applyFields(w, record, element, errors);
    // The change's time: the client's updated_at when it sends one, else now; the author is the token's user.
    if (!(typeof element.updated_at === 'number')) record.updated_at = w.nowSeconds;
    if (!(typeof element.updated_by === 'number')) record.updated_by = w.userId;
    if (errors.length > 0) failures.push({ request_id: requestId, errors });
    return { record: inRecordOrder(list, record), requestId };
  });
  if (failures.length > 0) throw new ValidationFailure('the request holds invalid fields', failures);
  const done = changed.filter((c) => c !== undefined);
  store.write(list, done.map((c) => c.record), w.tags.added);
  return done.map((c) => ({ id: c.record.id, updatedAt: c.record.updated_at, requestId: c.requestId }));
}

function rawQueryOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

function queryOf(ctx: EmulatorContext, rawQuery: string, parsed: unknown): Record<string, unknown> {
  if (ctx.faults.isOn('bracket-array-as-single')) {
    return parseQuery(rawQuery.replace(/\[\]|%5B%5D/gi, ''));
  }
  // Only for the fault: a filter value under a numeric index (filter[id][0]=…) fails a validator that knows only [] arrays.
  if (ctx.faults.isOn('indexed-filter-array-refused') && rawQuery.split('&').some((p) => /^filter(\[|%5B)[a-z_]+(\]|%5D)(\[|%5B)\d+(\]|%5D)=/i.test(p))) {
    throw new ProblemError({ status: 400, detail: 'filter arrays take [] keys, not indexes' });
  }
  // Only for the fault: a key spelt with %5B is left undecoded, an unknown parameter.
  if (ctx.faults.isOn('lists-percent-brackets-ignored')) return parseQuery(rawQuery.split('&').filter((p) => !/^[^=]*%5B/i.test(p)).join('&'));
  let query = (parsed ?? {}) as Record<string, unknown>;
  // Only for the fault: the search string is taken from the raw query, without percent-decoding it.
  if (ctx.faults.isOn('query-not-percent-decoded') && typeof query.query === 'string') {
    const raw = rawQuery.split('&').find((p) => p.startsWith('query='));
    if (raw !== undefined) query = { ...query, query: raw.slice('query='.length) };
  }
  return ctx.faults.isOn('lists-query-latin1') ? latin1Strings(query) as Record<string, unknown> : query;
}

/** Only for the fault: every query value's UTF-8 bytes read one by one as Latin-1 characters. */
function latin1Strings(v: unknown): unknown {
  if (typeof v === 'string') return Buffer.from(v, 'utf8').toString('latin1');
  if (Array.isArray(v)) return v.map(latin1Strings);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, latin1Strings(x)]));
  return v;
}

function positive(name: string, v: unknown, fallback: number, faults?: EmulatorContext['faults']): number {
  if (v === undefined || v === '') return fallback;
  if (typeof v !== 'string' || !/^\d{1,9}$/.test(v) || Number(v) < 1) {
    // Only for the fault: the value goes to the database driver unchecked, which throws.
    if (faults?.isOn('lists-crash-on-bad-paging')) throw new TypeError(`invalid OFFSET/LIMIT: ${String(v)}`);
    throw new ProblemError({ status: 400, detail: `\`${name}\` must be a positive integer` });
  }
  return Number(v);
}

/** The HAL body of one page, or undefined when the page holds no record (204). */
export function listPage(
  ctx: EmulatorContext, list: ListName, query: Record<string, unknown>, rawQuery: string, listUrl: string,
  table: ListTable, withs: ReadonlySet<string> = new Set(), userId?: number,
): string | undefined {
  const v = ctx.variations;
  const f = ctx.faults;
  const page = positive('page', query.page, 1, f);
  // Only for the fault: the default limit is applied where no page is asked, and `page` alone multiplies undefined.
  if (f.isOn('lists-crash-page-without-limit') && query.page !== undefined && query.limit === undefined) throw new TypeError('Cannot convert undefined to a page offset');
  const limit = v.isOn('lists-small-pages')
    ? Math.min(SMALL_MAX_LIMIT, positive('limit', query.limit, SMALL_DEFAULT_LIMIT, f))
    : Math.min(MAX_LIMIT, positive('limit', query.limit, DEFAULT_LIMIT, f));
  let tests: Test[] = [];
  let candidates: readonly number[] | undefined;
  const filtered = query.filter !== undefined && ctx.world.account.isApiFilterEnabled;
  if (filtered) {
    const compiled = compileFilter(list, table, query.filter, ctx.faults, v);
    tests = [...compiled.tests];
    candidates = compiled.candidates;
    // Only for the `lists-filters-any` variation: the parameters as alternatives, the id filter one of them.
    if (v.isOn('lists-filters-any') && tests.length + (candidates ? 1 : 0) > 1) {
      const ids = new Set(candidates ?? []);
      const any = tests;
      tests = [(i) => ids.has(i) || any.some((t) => t(i))];
      candidates = undefined;
    }
  }
  if (f.isOn('lists-crash-on-empty-query') && query.query === '') throw new TypeError('Cannot read properties of undefined (reading \'toLowerCase\')');
  // Only for the `query-leads-only` fault: the search runs over the deals' index, so it finds no contact or company.
  if ((list === 'contacts' || list === 'companies') && typeof query.query === 'string' && query.query !== '' && f.isOn('query-leads-only')) tests.push(() => false);
  const search = list !== 'customers' && typeof query.query === 'string' && query.query !== '';
  if (search) tests.push(searchTest(table, query.query as string, ctx.faults, v));
  // Last, after the variations that join the filter's tests: the rights narrow whatever the filter and search chose.
  const rights = rightsTest(ctx, list, table, userId, { page, byId: candidates !== undefined, filter: filtered ? query.filter : undefined, search });
  if (rights) tests.push(rights);
  if (rights && userId !== undefined && v.isOn('rights-beyond-refused-403') && namesBeyondRights(rights, userId, candidates, filtered ? query.filter : undefined)) {
    throw new ProblemError({ status: 403, detail: `The token's user may not see what this request names in ${list}` });
  }
  const descending = v.isOn('lists-id-descending');

  const order = orderOf(list, table, query.order);

  // Only for the faults: the offset of page n taken as n·limit (page 1 skipped), or one record early (one record on two pages).
  const skip = f.isOn('page-offset-one-page-ahead') ? page * limit : f.isOn('page-offset-one-early') ? Math.max(0, (page - 1) * limit - 1) : (page - 1) * limit;
  let rows: number[] = [];
  let matched = 0;
  let hasMore = false;
  const total = candidates ? candidates.length : table.size;
  const nTests = tests.length;
  // Without `order`, records come in id order and the scan stops at the page's end; with it, every match is sorted first.
  const all: number[] | undefined = order ? [] : undefined;
  scan: for (let n = 0; n < total; n += 1) {
    const k = descending ? total - 1 - n : n;
    const i = candidates ? candidates[k]! : k;
    for (let t = 0; t < nTests; t += 1) if (!tests[t]!(i)) continue scan;
    if (all) { all.push(i); continue; }
    if (matched >= skip) {
      if (rows.length === limit) { hasMore = true; break; }
      rows.push(i);
    }
    matched += 1;
  }
  if (all && order) {
    all.sort(order);
    rows = all.slice(skip, skip + limit);
    hasMore = all.length > skip + limit;
  }
  if (rows.length === 0) {
    // Only for the faults: the empty page is built from its first record, which is not there.
    if (f.isOn('lists-crash-on-empty-result') || (f.isOn('lists-crash-on-page-beyond-end') && page > 1)) throw new TypeError('Cannot read properties of undefined (reading \'id\')');
    return undefined;
  }
  if (v.isOn('lists-plain-json-no-links')) {
    return `{"_page":${page},"_embedded":{"${list}":[${rows.map((i) => `${table.json[i]}}`).join(',')}]}}`;
  }

  const self = rawQuery ? `${listUrl}?${rawQuery}` : listUrl;
  let links = `"self":{"href":${JSON.stringify(self)}}`;
  const others = otherParameters(rawQuery);
  const pageLink = (name: string, n: number, params = others): string => `,"${name}":{"href":${JSON.stringify(`${listUrl}?${[...params, `page=${n}`].join('&')}`)}}`;
  if (hasMore) links += pageLink('next', f.isOn('next-link-same-page') ? page : page + 1, ctx.faults.isOn('next-link-drops-filter') ? others.filter((p) => !/^filter(\[|%5B|=|$)/i.test(p)) : others);
  if (page > 1) links += pageLink('first', 1) + pageLink('prev', page - 1);
  const recordBase = JSON.stringify(`${listUrl}/`).slice(0, -1);
  const embedded = embeddedOf(list, withs, listUrl.slice(0, listUrl.lastIndexOf('/')));
  let items = '';
  for (let r = 0; r < rows.length; r += 1) {
    const i = rows[r]!;
    items += `${r === 0 ? '' : ','}${table.json[i]},"_links":{"self":{"href":${recordBase}${table.ids[i]}"}},"_embedded":${embedded(table.embedded[i])}}`;
  }
  return `{"_page":${page},"_links":{${links}},"_embedded":{"${list}":[${items}]}}`;
}

/**
 * The fields `order[<field>]=asc|desc` sorts each list by, as the live service's list references name them. An
 * `order` of another shape, another field or another direction is a 400 naming it, never silently ignored.
 */
export const ORDER_FIELDS: Record<ListName, readonly ('id' | 'created_at' | 'updated_at')[]> = {
  leads: ['created_at', 'updated_at', 'id'],
  contacts: ['updated_at', 'id'],
  companies: ['updated_at', 'id'],
  customers: ['updated_at', 'id'],
};

/** A comparator of record indices for `order`, or undefined when the request names none. Ties go by id, ascending. */
function orderOf(list: ListName, table: ListTable, order: unknown): ((a: number, b: number) => number) | undefined {
  if (order === undefined) return undefined;
  const fields = ORDER_FIELDS[list];
  const shape = `order[<field>]=asc|desc, the field one of ${fields.join(', ')}`;
  if (order === null || typeof order !== 'object' || Array.isArray(order)) throw new ProblemError({ status: 400, detail: `\`order\` takes ${shape}` });
  const keys = Object.keys(order);
  if (keys.length !== 1) throw new ProblemError({ status: 400, detail: `\`order\` takes one field: ${shape}` });
  const field = keys[0]!;
  if (!(fields as readonly string[]).includes(field)) throw new ProblemError({ status: 400, detail: `order[${field}]: ${list} cannot be sorted by ${field} (${shape})` });
  const direction = (order as Record<string, unknown>)[field];
  const dir = typeof direction === 'string' ? direction.toLowerCase() : undefined;
  if (dir !== 'asc' && dir !== 'desc') throw new ProblemError({ status: 400, detail: `order[${field}] must be asc or desc` });
  const column = field === 'id' ? table.ids : table.num[field as 'created_at' | 'updated_at'];
  const sign = dir === 'asc' ? 1 : -1;
  const ids = table.ids;
  return (a, b) => (column[a]! - column[b]!) * sign || ids[a]! - ids[b]!;
}

/** Only for the `lists-empty-200` variation: the page of a list answer that holds no record. */
function emptyPage(list: ListName, query: Record<string, unknown>, rawQuery: string, listUrl: string, plain: boolean): string {
  const page = positive('page', query.page, 1);
  const links = plain ? '' : `"_links":{"self":{"href":${JSON.stringify(rawQuery ? `${listUrl}?${rawQuery}` : listUrl)}}},`;
  return `{"_page":${page},${links}"_embedded":{"${list}":[]}}`;
}

/** Only for the `lists-slow-filtered` variation: holds the first filtered answer of each list. */
async function holdFirst(ctx: EmulatorContext, list: ListName): Promise<void> {
  let held = heldLists.get(ctx);
  if (!held) heldLists.set(ctx, (held = new Set()));
  if (held.has(list)) return;
  held.add(list);
  await new Promise((resolve) => setTimeout(resolve, SLOW_FILTERED_MS));
}

/** Every query parameter as the client sent it except `page`, which each page link sets. */
function otherParameters(rawQuery: string): string[] {
  return rawQuery.split('&').filter((p) => p !== '' && !/^page(=|$)/i.test(p));
}
