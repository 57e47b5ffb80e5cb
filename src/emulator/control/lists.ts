/**
 * Control API of the list endpoints (§4.2), documented in docs/control-api.md: the ground truth the oracle rules
 * compare with (catalog and records), a reseed with N records per list (scale tests, benchmarks), and the switch of
 * the paid filter feature. Nothing here is secret.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { EmulatorContext, RouteOptions } from '../context.js';
import { methodNotAllowed, ProblemError } from '../errors.js';
import { LIST_NAMES, MAX_RECORD_COUNT, DEFAULT_RECORD_COUNT, isListName, type DataSet, type ListName } from '../lists/data.js';
import { listStore } from '../lists/store.js';
import { CONTROL_PREFIX } from './routes.js';
import { badRequest, controlBody, optionalStringArray } from './validate.js';

const json = (reply: FastifyReply, status: number, body: unknown): FastifyReply =>
  reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));

export async function listControlRoutes(app: FastifyInstance, { ctx }: RouteOptions): Promise<void> {
  const p = `${CONTROL_PREFIX}/lists`;
  const store = listStore(ctx);

  app.get(p, async (_request, reply) => json(reply, 200, overview(ctx, store.data)));
  methodNotAllowed(app, p, ['GET']);

  app.post(`${p}/reseed`, async (request, reply) => {
    const body = request.body === undefined ? {} : controlBody(request.body);
    const count = optionalInteger(body, 'count', 0, MAX_RECORD_COUNT) ?? DEFAULT_RECORD_COUNT;
    const seed = optionalInteger(body, 'seed', 0, 2 ** 31 - 1) ?? store.defaultSeed;
    const lists = optionalStringArray(body, 'lists');
    const unknown = lists?.filter((l) => !isListName(l)) ?? [];
    if (unknown.length > 0) throw badRequest(`\`lists\` names unknown lists: ${unknown.join(', ')} (known: ${LIST_NAMES.join(', ')})`);
    const include = body.include_records ?? true;
    if (typeof include !== 'boolean') throw badRequest('`include_records` must be a boolean');
    const data = store.reseed(seed, count, lists as ListName[] | undefined);
    return json(reply, 200, { ...overview(ctx, data), ...(include ? { records: data.records } : {}) });
  });
  methodNotAllowed(app, `${p}/reseed`, ['POST']);

  app.get(`${p}/filter-feature`, async (_request, reply) => json(reply, 200, { enabled: ctx.world.account.isApiFilterEnabled }));
  app.post(`${p}/filter-feature`, async (request, reply) => {
    const body = controlBody(request.body);
    if (typeof body.enabled !== 'boolean') throw badRequest('`enabled` must be a boolean');
    ctx.world.account.isApiFilterEnabled = body.enabled;
    return json(reply, 200, { enabled: body.enabled });
  });
  methodNotAllowed(app, `${p}/filter-feature`, ['GET', 'POST']);

  app.get<{ Params: { list: string } }>(`${p}/:list`, async (request, reply) => {
    const { list } = request.params;
    if (!isListName(list)) throw new ProblemError({ status: 404, detail: `No list named so (known: ${LIST_NAMES.join(', ')})` });
    // `?account=other`: the records of another account, which the lists must never show (§4.2 isolation rules).
    const other = (request.query as Record<string, unknown> | undefined)?.account === 'other';
    const records = (other ? store.otherAccount().data : store.data).records[list];
    return json(reply, 200, { list, count: records.length, records, ...(other ? { account: 'other' } : {}) });
  });
  methodNotAllowed(app, `${p}/:list`, ['GET']);

  app.post<{ Params: { list: string } }>(`${p}/:list/records`, async (request, reply) => {
    const { list } = request.params;
    if (!isListName(list)) throw new ProblemError({ status: 404, detail: `No list named so (known: ${LIST_NAMES.join(', ')})` });
    const body = controlBody(request.body);
    if (typeof body.name !== 'string' || body.name.length === 0 || body.name.length > 255) throw badRequest('`name` must be a string of 1 to 255 characters');
    const made = store.addRecord(list, body.name);
    if (!made) throw new ProblemError({ status: 409, detail: `the ${list} list holds no record to copy; reseed it first` });
    return json(reply, 201, made);
  });
  methodNotAllowed(app, `${p}/:list/records`, ['POST']);
}

function overview(ctx: EmulatorContext, data: DataSet): Record<string, unknown> {
  return {
    seed: data.seed,
    counts: Object.fromEntries(LIST_NAMES.map((l) => [l, data.records[l].length])),
    filter_enabled: ctx.world.account.isApiFilterEnabled,
    catalog: data.catalog,
  };
}

function optionalInteger(body: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  if (!Object.hasOwn(body, field)) return undefined;
  const v = body[field];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) throw badRequest(`\`${field}\` must be an integer from ${min} to ${max}`);
  return v;
}
