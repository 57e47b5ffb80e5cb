/**
 * What arrives at the emulator, per second, in all and per interface (the account API with OAuth and the page, the
 * chat interface, the control API): the ground truth for the kit's client-side rate budgets, and an optional
 * server-side limit per interface that answers 429 with Retry-After as the live service does above ~7 requests/s.
 * Control calls about traffic itself are not counted.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { VariationSwitches } from './variations.js';
import { jsonBytes } from './errors.js';

/** The arrivals kept (the latest ones), per log. */
const CAPACITY = 1 << 20;
/** The first allocation: an instance makes five logs, most of which see a few hundred requests (a fault test's run). */
const INITIAL = 1 << 10;

export class TrafficLog {
  /** Grown by doubling up to CAPACITY, then a ring: five logs of CAPACITY at once would be 40 MB zeroed per start. */
  #times = new Float64Array(INITIAL);
  #count = 0;
  /** Of them, those answered 429 (over the limit, or by the `every-hundredth-429` variation). */
  limited = 0;

  record(nowMs: number): void {
    if (this.#count === this.#times.length && this.#times.length < CAPACITY) {
      const grown = new Float64Array(this.#times.length * 2);
      grown.set(this.#times);
      this.#times = grown;
    }
    this.#times[this.#count % this.#times.length] = nowMs;
    this.#count += 1;
  }

  /** Arrivals in the second before `nowMs`, counting the current one. */
  inLastSecond(nowMs: number): number {
    let n = 0;
    const size = this.#times.length;
    for (let i = this.#count - 1; i >= Math.max(0, this.#count - size) && nowMs - this.#times[i % size]! < 1000; i -= 1) n += 1;
    return n;
  }

  /** The most arrivals seen in any window of one second (two pointers over the sorted arrival times). */
  maxPerSecond(): number {
    const size = this.#times.length;
    const start = Math.max(0, this.#count - size);
    let best = 0;
    let lo = start;
    for (let hi = start; hi < this.#count; hi += 1) {
      while (this.#times[hi % size]! - this.#times[lo % size]! >= 1000) lo += 1;
      best = Math.max(best, hi - lo + 1);
    }
    return best;
  }

  get count(): number {
    return this.#count;
  }

  clear(): void {
    this.#count = 0;
    this.limited = 0;
  }
}

export const TRAFFIC_PATH = '/_control/traffic';

/**
 * The interfaces a live deployment serves each at its own origin (the emulator's one-origin shape at one address):
 * the account API with OAuth's token endpoint, the chat interface, the access-granting page, and the control API.
 */
export const INTERFACES = ['api', 'chat', 'page', 'control'] as const;
export type Interface = (typeof INTERFACES)[number];

export function interfaceOf(url: string): Interface {
  if (url.startsWith('/_control')) return 'control';
  if (/^\/oauth(?:[/?]|$)/.test(url)) return 'page';
  return url.startsWith('/v2/origin/custom/') ? 'chat' : 'api';
}

/** Every arrival, and the arrivals of each interface. */
export class TrafficLogs {
  readonly all = new TrafficLog();
  readonly byInterface: Record<Interface, TrafficLog> = { api: new TrafficLog(), chat: new TrafficLog(), page: new TrafficLog(), control: new TrafficLog() };
  /** Server-side limit of each of the service's interfaces (api, chat), requests per second, or undefined for none. */
  limitRps: number | undefined;

  record(url: string, nowMs: number): Interface {
    const which = interfaceOf(url);
    this.all.record(nowMs);
    this.byInterface[which].record(nowMs);
    return which;
  }

  clear(): void {
    this.all.clear();
    for (const log of Object.values(this.byInterface)) log.clear();
  }
}

/** The `every-hundredth-429` variation answers each this many-th request to the service. */
export const LIMITED_EVERY = 100;

const tooMany = (reply: FastifyReply, detail: string) => reply.code(429).header('retry-after', '1').header('content-type', 'application/problem+json')
  .send(jsonBytes({ title: 'Too Many Requests', type: 'https://developers.example/errors/429', status: 429, detail }));

/**
 * Records every request before routing; answers 429 over the server-side limit when one is set, and, with the
 * `every-hundredth-429` variation, to every LIMITED_EVERY-th request to the service's interfaces (the account API with
 * OAuth, the page and its navigations, the chat interface; never the control API, no part of the service). Counted in
 * arrival order, the same requests of a run are answered 429 whatever the machine's speed, as far as the run sends
 * them in one order; a 429 is answered before routing, so nothing of the request was done.
 */
export function installTrafficLog(app: FastifyInstance, logs: TrafficLogs, variations: VariationSwitches): void {
  let served = 0;
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith(TRAFFIC_PATH)) return;
    const now = performance.now();
    const which = logs.record(request.url, now);
    if (which === 'control') return;
    const limited = (detail: string) => {
      logs.all.limited += 1;
      logs.byInterface[which].limited += 1;
      return tooMany(reply, detail);
    };
    if (logs.limitRps !== undefined && logs.byInterface[which].inLastSecond(now) > logs.limitRps) return limited(`more than ${logs.limitRps} requests per second`);
    served += 1;
    if (variations.isOn('every-hundredth-429') && served % LIMITED_EVERY === 0) return limited(`request ${served}: every ${LIMITED_EVERY}th request is limited`);
  });
}

/**
 * `GET /_control/traffic`: arrivals so far; `POST` sets or clears the server-side limit and can reset the log. `ctx` is
 * typed by what it uses: naming EmulatorContext here would close an import cycle (context.ts names TrafficLog).
 */
export async function trafficRoutes(app: FastifyInstance, { ctx }: { ctx: { readonly traffic: TrafficLogs; onReset(clear: () => void): void } }): Promise<void> {
  const counts = (log: TrafficLog) => ({ requests: log.count, max_per_second: log.maxPerSecond(), limited: log.limited });
  const view = () => ({
    ...counts(ctx.traffic.all),
    by_interface: Object.fromEntries(INTERFACES.map((i) => [i, counts(ctx.traffic.byInterface[i])])),
    limit_rps: ctx.traffic.limitRps ?? null,
  });
  const json = (body: unknown) => JSON.stringify(body);
  app.get(TRAFFIC_PATH, async (_request, reply) => reply.header('content-type', 'application/json').send(json(view())));
  app.post(TRAFFIC_PATH, async (request, reply) => {
    const body = (request.body ?? {}) as { limit_rps?: unknown; reset?: unknown };
    const limit = body.limit_rps;
    if (limit !== undefined && limit !== null && !(typeof limit === 'number' && Number.isInteger(limit) && limit > 0)) {
      return reply.code(400).header('content-type', 'application/json').send(json({ title: 'Bad Request', status: 400, detail: '`limit_rps` must be a positive integer or null' }));
    }
    if (limit !== undefined) ctx.traffic.limitRps = limit ?? undefined;
    if (body.reset === true) ctx.traffic.clear();
    return reply.header('content-type', 'application/json').send(json(view()));
  });
  ctx.onReset(() => {
    ctx.traffic.limitRps = undefined;
  });
}
