/**
 * What a client reads before it filters (issue 40): the leads' pipelines with their statuses
 * (`GET /api/v4/leads/pipelines`), the customers' statuses and each list's custom fields
 * (`GET /api/v4/<list>/custom_fields`), in the live service's HAL shapes, served read-only from the list data's
 * catalog: the same pipelines, statuses, fields and enum ids that `filter[statuses]`, `filter[pipeline_id]`,
 * `filter[status]` and `filter[custom_fields_values]` accept (./engine.ts) and the records carry. Each item's
 * `_links.self` is served too. A bearer is required, as on the lists.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerAuth } from '../api/bearer.js';
import { linkBase } from '../api/links.js';
import type { EmulatorContext } from '../context.js';
import { methodNotAllowed, ProblemError } from '../errors.js';
import { LIST_NAMES, type CustomFieldDef, type Pipeline, type Status } from './data.js';
import type { ListStore } from './store.js';

/** The closing statuses every pipeline shares (./data.ts), which the live service marks as not editable. */
const CLOSING = new Set([142, 143]);
/** The colour the live service gives a status none was chosen for. */
const STATUS_COLOR = '#99ccff';

type Item = Record<string, unknown>;

function hal(reply: FastifyReply, body: unknown): FastifyReply {
  return reply.code(200).header('content-type', 'application/hal+json; charset=utf-8').send(JSON.stringify(body));
}

/** One id of the path, or a 404 naming what is missing. */
function found<T extends { id: number }>(items: readonly T[], raw: string, what: string): T {
  const item = /^\d{1,15}$/.test(raw) ? items.find((i) => i.id === Number(raw)) : undefined;
  if (!item) throw new ProblemError({ status: 404, detail: `No ${what} has this id` });
  return item;
}

export function catalogRoutes(app: FastifyInstance, ctx: EmulatorContext, store: ListStore): void {
  const accountId = () => ctx.world.account.id;
  const api = (request: FastifyRequest) => `${linkBase(ctx, request)}/api/v4`;
  const auth = { preHandler: bearerAuth(ctx) };

  const statusOf = (base: string, pipeline: Pipeline, status: Status, sort: number): Item => ({
    id: status.id, name: status.name, sort, is_editable: !CLOSING.has(status.id), pipeline_id: pipeline.id, color: STATUS_COLOR,
    // 0: an ordinary status; the live service's 1 is the "incoming" one, which the emulator's pipelines have none of.
    type: 0, account_id: accountId(),
    _links: { self: { href: `${base}/leads/pipelines/${pipeline.id}/statuses/${status.id}` } },
  });
  const statusesOf = (base: string, pipeline: Pipeline): Item[] => pipeline.statuses.map((s, n) => statusOf(base, pipeline, s, (n + 1) * 10));
  const pipelineOf = (base: string, pipeline: Pipeline, sort: number): Item => ({
    id: pipeline.id, name: pipeline.name, sort, is_main: pipeline.is_main, is_unsorted_on: ctx.world.account.isUnsortedOn, is_archive: false,
    account_id: accountId(),
    _links: { self: { href: `${base}/leads/pipelines/${pipeline.id}` } },
    _embedded: { statuses: statusesOf(base, pipeline) },
  });
  const pipelines = () => store.data.catalog.pipelines;

  app.get('/api/v4/leads/pipelines', auth, async (request, reply) => {
    const base = api(request);
    const all = pipelines().map((p, n) => pipelineOf(base, p, n + 1));
    return hal(reply, { _total_items: all.length, _links: { self: { href: `${base}/leads/pipelines` } }, _embedded: { pipelines: all } });
  });
  app.get<{ Params: { pipeline: string } }>('/api/v4/leads/pipelines/:pipeline', auth, async (request, reply) => {
    const p = found(pipelines(), request.params.pipeline, 'pipeline');
    return hal(reply, pipelineOf(api(request), p, pipelines().indexOf(p) + 1));
  });
  app.get<{ Params: { pipeline: string } }>('/api/v4/leads/pipelines/:pipeline/statuses', auth, async (request, reply) => {
    const base = api(request);
    const p = found(pipelines(), request.params.pipeline, 'pipeline');
    const all = statusesOf(base, p);
    return hal(reply, { _total_items: all.length, _links: { self: { href: `${base}/leads/pipelines/${p.id}/statuses` } }, _embedded: { statuses: all } });
  });
  app.get<{ Params: { pipeline: string; status: string } }>('/api/v4/leads/pipelines/:pipeline/statuses/:status', auth, async (request, reply) => {
    const p = found(pipelines(), request.params.pipeline, 'pipeline');
    const s = found(p.statuses, request.params.status, 'status of this pipeline');
    return hal(reply, statusOf(api(request), p, s, (p.statuses.indexOf(s) + 1) * 10));
  });

  const customerStatusOf = (base: string, status: Status, sort: number): Item => ({
    id: status.id, name: status.name, sort, is_default: sort === 10, color: STATUS_COLOR, type: 0, conditions: [], account_id: accountId(),
    _links: { self: { href: `${base}/customers/statuses/${status.id}` } },
  });
  app.get('/api/v4/customers/statuses', auth, async (request, reply) => {
    const base = api(request);
    const all = store.data.catalog.customer_statuses.map((s, n) => customerStatusOf(base, s, (n + 1) * 10));
    return hal(reply, { _total_items: all.length, _links: { self: { href: `${base}/customers/statuses` } }, _embedded: { statuses: all } });
  });
  app.get<{ Params: { status: string } }>('/api/v4/customers/statuses/:status', auth, async (request, reply) => {
    const all = store.data.catalog.customer_statuses;
    const s = found(all, request.params.status, 'customer status');
    return hal(reply, customerStatusOf(api(request), s, (all.indexOf(s) + 1) * 10));
  });

  for (const list of LIST_NAMES) {
    const fieldOf = (base: string, field: CustomFieldDef, sort: number): Item => ({
      id: field.id, name: field.name, type: field.type, account_id: accountId(), code: field.code, sort, is_api_only: false,
      enums: field.enums ? field.enums.map((e, n) => ({ id: e.id, value: e.value, sort: (n + 1) * 10 })) : null,
      group_id: null, required_statuses: [], is_deletable: true, is_predefined: false, entity_type: list, remind: null,
      _links: { self: { href: `${base}/${list}/custom_fields/${field.id}` } },
    });
    const fields = () => store.data.catalog.custom_fields[list];
    app.get(`/api/v4/${list}/custom_fields`, auth, async (request, reply) => {
      const base = api(request);
      // Every field on one page: each list has fewer than the smallest page (the live service's default limit 50).
      const all = fields().map((f, n) => fieldOf(base, f, (n + 1) * 10));
      return hal(reply, { _total_items: all.length, _page: 1, _page_count: 1, _links: { self: { href: `${base}/${list}/custom_fields` } }, _embedded: { custom_fields: all } });
    });
    app.get<{ Params: { field: string } }>(`/api/v4/${list}/custom_fields/:field`, auth, async (request, reply) => {
      const f = found(fields(), request.params.field, `custom field of ${list}`);
      return hal(reply, fieldOf(api(request), f, (fields().indexOf(f) + 1) * 10));
    });
    // Read-only: the emulator's catalog is its data's, not changed through the API.
    methodNotAllowed(app, `/api/v4/${list}/custom_fields`, ['GET']);
    methodNotAllowed(app, `/api/v4/${list}/custom_fields/:field`, ['GET']);
  }
  for (const path of ['/api/v4/leads/pipelines', '/api/v4/leads/pipelines/:pipeline', '/api/v4/leads/pipelines/:pipeline/statuses', '/api/v4/leads/pipelines/:pipeline/statuses/:status', '/api/v4/customers/statuses', '/api/v4/customers/statuses/:status']) {
    methodNotAllowed(app, path, ['GET']);
  }
}
