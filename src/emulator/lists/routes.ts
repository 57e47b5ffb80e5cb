/**
 * `GET /api/v4/leads|contacts|companies|customers` (§4.2) in the live service's shape (docs/field-notes.md): HAL JSON with
 * `_page`, `_links.self` and `_links.next` (built from the scheme and host the client called, keeping every other
 * query parameter), `_embedded.<list>[]` with each record's own `_links.self`; `page` and `limit` paginate (default
 * 50, at most 250: a larger limit is lowered to 250); an empty result is 204 with an empty body; a bearer is required.
 * With the paid filter feature off, `filter` is ignored (as the live service is reported to do); `query` still works.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import qs from 'qs';
import { bearerAuth } from '../api/bearer.js';
import { linkBase } from '../api/links.js';
import { QS_OPTIONS } from '../body.js';
import type { EmulatorContext, RouteOptions } from '../context.js';
import { methodNotAllowed, ProblemError, sendProblem, toProblem } from '../errors.js';
import { LIST_NAMES, type ListName } from './data.js';
import { compileFilter, searchTest, type Test } from './engine.js';
import { listStore } from './store.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 250;

export async function listRoutes(app: FastifyInstance, { ctx }: RouteOptions): Promise<void> {
  if (!app.hasRequestDecorator('principal')) app.decorateRequest('principal', null);
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const p = toProblem(err);
    if (p.status >= 500) request.log.error({ err }, 'unhandled emulator error');
    return sendProblem(reply, p, 'application/problem+json');
  });
  const store = listStore(ctx);
  for (const list of LIST_NAMES) {
    const path = `/api/v4/${list}`;
    app.get(path, { preHandler: bearerAuth(ctx) }, async (request, reply) => {
      const rawQuery = rawQueryOf(request.url);
      const query = queryOf(ctx, rawQuery, request.query);
      const body = listPage(ctx, list, query, rawQuery, `${linkBase(ctx, request)}${path}`, store.table(list));
      if (body === undefined) return reply.code(204).send();
      return reply.code(200).header('content-type', 'application/hal+json; charset=utf-8').send(body);
    });
    methodNotAllowed(app, path, ['GET']);
  }
}

function rawQueryOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

function queryOf(ctx: EmulatorContext, rawQuery: string, parsed: unknown): Record<string, unknown> {
  if (ctx.faults.isOn('bracket-array-as-single')) {
    return qs.parse(rawQuery.replace(/\[\]|%5B%5D/gi, ''), { ...QS_OPTIONS, duplicates: 'last' }) as Record<string, unknown>;
  }
  return (parsed ?? {}) as Record<string, unknown>;
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
  const page = positive('page', query.page, 1);
  const limit = Math.min(MAX_LIMIT, positive('limit', query.limit, DEFAULT_LIMIT));
  let tests: Test[] = [];
  let candidates: readonly number[] | undefined;
  if (query.filter !== undefined && ctx.world.account.isApiFilterEnabled) {
    const compiled = compileFilter(list, table, query.filter, ctx.faults);
    tests = [...compiled.tests];
    candidates = compiled.candidates;
  }
  if (list !== 'customers' && typeof query.query === 'string' && query.query !== '') tests.push(searchTest(table, query.query, ctx.faults));

  const skip = (page - 1) * limit;
  const rows: number[] = [];
  let matched = 0;
  let hasMore = false;
  const total = candidates ? candidates.length : table.size;
  const nTests = tests.length;
  scan: for (let k = 0; k < total; k += 1) {
    const i = candidates ? candidates[k]! : k;
    for (let t = 0; t < nTests; t += 1) if (!tests[t]!(i)) continue scan;
    if (matched >= skip) {
      if (rows.length === limit) { hasMore = true; break; }
      rows.push(i);
    }
    matched += 1;
  }
  if (rows.length === 0) return undefined;

  const self = rawQuery ? `${listUrl}?${rawQuery}` : listUrl;
  let links = `"self":{"href":${JSON.stringify(self)}}`;
  if (hasMore) links += `,"next":{"href":${JSON.stringify(`${listUrl}?${nextQuery(ctx, rawQuery, page + 1)}`)}}`;
  const recordBase = JSON.stringify(`${listUrl}/`).slice(0, -1);
  let items = '';
  for (let r = 0; r < rows.length; r += 1) {
    const i = rows[r]!;
    items += `${r === 0 ? '' : ','}${table.json[i]},"_links":{"self":{"href":${recordBase}${table.ids[i]}"}}}`;
  }
  return `{"_page":${page},"_links":{${links}},"_embedded":{"${list}":[${items}]}}`;
}

/** The query of the next page: every parameter as the client sent it, `page` replaced. */
function nextQuery(ctx: EmulatorContext, rawQuery: string, page: number): string {
  let parts = rawQuery.split('&').filter((p) => p !== '' && !/^page(=|$)/i.test(p));
  if (ctx.faults.isOn('next-link-drops-filter')) parts = parts.filter((p) => !/^filter(\[|%5B|=|$)/i.test(p));
  return [...parts, `page=${page}`].join('&');
}
