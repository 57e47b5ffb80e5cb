/**
 * `GET /api/v4/leads|contacts|companies|customers` (§4.2) in the live service's shape (docs/field-notes.md): HAL JSON with
 * `_page` and `_links` (`self` as called; `next` while more records follow; `first` and `prev` after the first page;
 * each built from the scheme and host the client called and keeping every other query parameter), `_embedded.<list>[]`
 * with each record's own `_links.self`, which `GET /api/v4/<list>/<id>` serves; `page` and `limit` paginate (default
 * 50, at most 250: a larger limit is lowered to 250); an empty result is 204 with an empty body; a bearer is required.
 * With the paid filter feature off, `filter` is ignored (as the live service is reported to do); `query` still works.
 * Allowed variations (../variations.ts) change the shape where the spec shows none: `lists-empty-200`,
 * `lists-id-descending`, `lists-small-pages`, `lists-plain-json-no-links`, `lists-slow-filtered`, `lists-filters-any`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerAuth } from '../api/bearer.js';
import { linkBase } from '../api/links.js';
import { parseQuery } from '../body.js';
import type { EmulatorContext, RouteOptions } from '../context.js';
import { methodNotAllowed, PROBLEM_JSON, ProblemError, sendProblem, toProblem } from '../errors.js';
import { LIST_NAMES, type ListName } from './data.js';
import { compileFilter, searchTest, type Test } from './engine.js';
import { listStore } from './store.js';

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
    const p = toProblem(err);
    if (p.status >= 500) request.log.error({ err }, 'unhandled emulator error');
    return sendProblem(reply, p, PROBLEM_JSON);
  });
  const store = listStore(ctx);
  for (const list of LIST_NAMES) {
    const path = `/api/v4/${list}`;
    app.get(path, { preHandler: bearerAuth(ctx) }, async (request, reply) => {
      if (list === 'customers' && ctx.faults.isOn('lists-customers-not-found')) throw new ProblemError({ status: 404, detail: 'Not found' });
      const rawQuery = rawQueryOf(request.url);
      const query = queryOf(ctx, rawQuery, request.query);
      const url = `${linkBase(ctx, request)}${path}`;
      let body = listPage(ctx, list, query, rawQuery, url, store.table(list));
      // Only for the fault: a filter that finds nothing here is run over another account's records too.
      if (body === undefined && query.filter !== undefined && ctx.faults.isOn('lists-filter-other-account')) body = listPage(ctx, list, query, rawQuery, url, store.otherAccount().table(list));
      if (query.filter !== undefined && ctx.variations.isOn('lists-slow-filtered')) await holdFirst(ctx, list);
      const plain = ctx.variations.isOn('lists-plain-json-no-links');
      if (body === undefined && ctx.variations.isOn('lists-empty-200')) body = emptyPage(list, query, rawQuery, url, plain);
      if (body === undefined) return reply.code(204).send();
      return reply.code(200).header('content-type', plain ? 'application/json; charset=utf-8' : 'application/hal+json; charset=utf-8').send(body);
    });
    methodNotAllowed(app, path, ['GET']);

    app.get<{ Params: { id: string } }>(`${path}/:id`, { preHandler: bearerAuth(ctx) }, async (request, reply) => {
      const table = store.table(list);
      const { id } = request.params;
      const i = /^\d{1,15}$/.test(id) ? table.indexById.get(Number(id)) : undefined;
      if (i === undefined) throw new ProblemError({ status: 404, detail: `No record of ${list} has this id` });
      if (ctx.variations.isOn('lists-plain-json-no-links')) return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(`${table.json[i]}}`);
      const body = `${table.json[i]},"_links":{"self":{"href":${JSON.stringify(`${linkBase(ctx, request)}${path}/${table.ids[i]}`)}}}}`;
      return reply.code(200).header('content-type', 'application/hal+json; charset=utf-8').send(body);
    });
    methodNotAllowed(app, `${path}/:id`, ['GET']);
  }
}

function rawQueryOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

function queryOf(ctx: EmulatorContext, rawQuery: string, parsed: unknown): Record<string, unknown> {
  if (ctx.faults.isOn('bracket-array-as-single')) {
    return parseQuery(rawQuery.replace(/\[\]|%5B%5D/gi, ''));
  }
  // Only for the fault: a key spelt with %5B is left undecoded, an unknown parameter.
  if (ctx.faults.isOn('lists-percent-brackets-ignored')) return parseQuery(rawQuery.split('&').filter((p) => !/^[^=]*%5B/i.test(p)).join('&'));
  const query = (parsed ?? {}) as Record<string, unknown>;
  return ctx.faults.isOn('lists-query-latin1') ? latin1Strings(query) as Record<string, unknown> : query;
}

/** Only for the fault: every query value's UTF-8 bytes read one by one as Latin-1 characters. */
function latin1Strings(v: unknown): unknown {
  if (typeof v === 'string') return Buffer.from(v, 'utf8').toString('latin1');
  if (Array.isArray(v)) return v.map(latin1Strings);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, latin1Strings(x)]));
  return v;
}

function positive(name: string, v: unknown, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  if (typeof v !== 'string' || !/^\d{1,9}$/.test(v) || Number(v) < 1) {
    throw new ProblemError({ status: 400, detail: `\`${name}\` must be a positive integer` });
  }
  return Number(v);
}

/** The HAL body of one page, or undefined when the page holds no record (204). */
export function listPage(
  ctx: EmulatorContext, list: ListName, query: Record<string, unknown>, rawQuery: string, listUrl: string,
  table: ReturnType<ReturnType<typeof listStore>['table']>,
): string | undefined {
  const v = ctx.variations;
  const page = positive('page', query.page, 1);
  const limit = v.isOn('lists-small-pages')
    ? Math.min(SMALL_MAX_LIMIT, positive('limit', query.limit, SMALL_DEFAULT_LIMIT))
    : Math.min(MAX_LIMIT, positive('limit', query.limit, DEFAULT_LIMIT));
  let tests: Test[] = [];
  let candidates: readonly number[] | undefined;
  if (query.filter !== undefined && ctx.world.account.isApiFilterEnabled) {
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
  if (list !== 'customers' && typeof query.query === 'string' && query.query !== '') tests.push(searchTest(table, query.query, ctx.faults, v));
  const descending = v.isOn('lists-id-descending');

  const skip = (page - 1) * limit;
  const rows: number[] = [];
  let matched = 0;
  let hasMore = false;
  const total = candidates ? candidates.length : table.size;
  const nTests = tests.length;
  scan: for (let n = 0; n < total; n += 1) {
    const k = descending ? total - 1 - n : n;
    const i = candidates ? candidates[k]! : k;
    for (let t = 0; t < nTests; t += 1) if (!tests[t]!(i)) continue scan;
    if (matched >= skip) {
      if (rows.length === limit) { hasMore = true; break; }
      rows.push(i);
    }
    matched += 1;
  }
  if (rows.length === 0) return undefined;
  if (v.isOn('lists-plain-json-no-links')) {
    return `{"_page":${page},"_embedded":{"${list}":[${rows.map((i) => `${table.json[i]}}`).join(',')}]}}`;
  }

  const self = rawQuery ? `${listUrl}?${rawQuery}` : listUrl;
  let links = `"self":{"href":${JSON.stringify(self)}}`;
  const others = otherParameters(rawQuery);
  const pageLink = (name: string, n: number, params = others): string => `,"${name}":{"href":${JSON.stringify(`${listUrl}?${[...params, `page=${n}`].join('&')}`)}}`;
  if (hasMore) links += pageLink('next', page + 1, ctx.faults.isOn('next-link-drops-filter') ? others.filter((p) => !/^filter(\[|%5B|=|$)/i.test(p)) : others);
  if (page > 1) links += pageLink('first', 1) + pageLink('prev', page - 1);
  const recordBase = JSON.stringify(`${listUrl}/`).slice(0, -1);
  let items = '';
  for (let r = 0; r < rows.length; r += 1) {
    const i = rows[r]!;
    items += `${r === 0 ? '' : ','}${table.json[i]},"_links":{"self":{"href":${recordBase}${table.ids[i]}"}}}`;
  }
  return `{"_page":${page},"_links":{${links}},"_embedded":{"${list}":[${items}]}}`;
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
