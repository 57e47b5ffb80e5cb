/**
 * What arrives at the emulator, per second: the ground truth for the kit's client-side rate limit, and an
 * optional server-side limit that answers 429 with Retry-After as the live service does above ~7 requests/s.
 * Control calls about traffic itself are not counted.
 */
import type { FastifyInstance } from 'fastify';
import { jsonBytes } from './errors.js';

const CAPACITY = 1 << 20;

export class TrafficLog {
  readonly #times = new Float64Array(CAPACITY);
  #count = 0;
  /** Server-side limit in requests per second, or undefined for none. */
  limitRps: number | undefined;

  record(nowMs: number): void {
    this.#times[this.#count % CAPACITY] = nowMs;
    this.#count += 1;
  }

  /** Arrivals in the second before `nowMs`, counting the current one. */
  inLastSecond(nowMs: number): number {
    let n = 0;
    for (let i = this.#count - 1; i >= Math.max(0, this.#count - CAPACITY) && nowMs - this.#times[i % CAPACITY]! < 1000; i -= 1) n += 1;
    return n;
  }

  /** The most arrivals seen in any window of one second (two pointers over the sorted arrival times). */
  maxPerSecond(): number {
    const start = Math.max(0, this.#count - CAPACITY);
    let best = 0;
    let lo = start;
    for (let hi = start; hi < this.#count; hi += 1) {
      while (this.#times[hi % CAPACITY]! - this.#times[lo % CAPACITY]! >= 1000) lo += 1;
      best = Math.max(best, hi - lo + 1);
    }
    return best;
  }

  get count(): number {
    return this.#count;
  }

  clear(): void {
    this.#count = 0;
  }
}

export const TRAFFIC_PATH = '/_control/traffic';

/** Records every request before routing; answers 429 over the server-side limit when one is set. */
export function installTrafficLog(app: FastifyInstance, log: TrafficLog): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith(TRAFFIC_PATH)) return;
    const now = performance.now();
    log.record(now);
    if (log.limitRps !== undefined && !request.url.startsWith('/_control') && log.inLastSecond(now) > log.limitRps) {
      return reply.code(429).header('retry-after', '1').header('content-type', 'application/problem+json')
        .send(jsonBytes({ title: 'Too Many Requests', type: 'https://developers.example/errors/429', status: 429, detail: `more than ${log.limitRps} requests per second` }));
    }
  });
}

/**
 * `GET /_control/traffic`: arrivals so far; `POST` sets or clears the server-side limit and can reset the log. `ctx` is
 * typed by what it uses: naming EmulatorContext here would close an import cycle (context.ts names TrafficLog).
 */
export async function trafficRoutes(app: FastifyInstance, { ctx }: { ctx: { readonly traffic: TrafficLog; onReset(clear: () => void): void } }): Promise<void> {
  const view = () => ({ requests: ctx.traffic.count, max_per_second: ctx.traffic.maxPerSecond(), limit_rps: ctx.traffic.limitRps ?? null });
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
