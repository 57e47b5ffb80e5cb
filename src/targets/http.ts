/**
 * The one HTTP client of the kit (undici). Every exchange a rule makes goes through a Recorder so the
 * report can show it and replay it; transport failures become TransportError, which the runner turns into `errored`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request as undiciRequest } from 'undici';
import { RateLimiter, retryDelayMs } from './rate-limit.js';
import { TransportError } from '../errors.js';
import type { HttpRequest, HttpResponse } from '../model/http.js';
// A hang is an answer slower than the policy's limit: a 10 MB message or a full page can take seconds (docs/verdicts.md).
import { POLICY_HANG_MS } from '../model/readings.js';

export interface HttpClientOptions {
  /** Per-request time limit for headers and body, in milliseconds. */
  readonly timeoutMs?: number;
  readonly connections?: number;
  /** Requests per second at most (remote targets); every request of the client counts, control calls too. */
  readonly rateLimitRps?: number;
  /**
   * Retries of a 429 answer, honouring Retry-After (default 5 when rate limited, else 2): a 429 is never a failure in
   * itself (§8 "Rate limits: not shown"), so it is waited out before any check sees the answer (K21).
   */
  readonly retries429?: number;
}

export class HttpClient {
  readonly #agent: Agent;
  readonly #limiter: RateLimiter | undefined;
  readonly #retries429: number;
  /** After a 429 the whole client waits: the limit is the integration's, not one request's. */
  #pausedUntil = 0;

  constructor(options: HttpClientOptions = {}) {
    const timeout = options.timeoutMs ?? POLICY_HANG_MS;
    this.#limiter = options.rateLimitRps ? new RateLimiter({ rps: options.rateLimitRps }) : undefined;
    this.#retries429 = options.retries429 ?? (options.rateLimitRps ? 5 : 2);
    this.#agent = new Agent({
      headersTimeout: timeout,
      bodyTimeout: timeout,
      connectTimeout: Math.min(timeout, 5_000),
      connections: options.connections ?? 32,
      keepAliveTimeout: 10_000,
    });
  }

  /** Sends a request; a 429 is retried after its Retry-After (bounded), and the last answer is returned. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    for (let attempt = 0; ; attempt += 1) {
      const res = await this.#sendOnce(req);
      if (res.status !== 429 || attempt >= this.#retries429) return res;
      this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + retryDelayMs(res.headers['retry-after'], attempt));
    }
  }

  async #sendOnce(req: HttpRequest): Promise<HttpResponse> {
    while (this.#pausedUntil > Date.now()) await sleep(this.#pausedUntil - Date.now());
    return this.inSlot(async () => {
      const started = performance.now();
      try {
        const res = await undiciRequest(req.url, {
          method: req.method as 'GET',
          headers: req.headers,
          body: req.body,
          dispatcher: this.#agent,
        });
        const text = await res.body.text();
        return { status: res.statusCode, headers: flattenHeaders(res.headers), text, durationMs: performance.now() - started };
      } catch (err) {
        throw new TransportError(req.url, describeTransportError(err), { cause: err });
      }
    });
  }

  /** Runs a request the kit sends by other means (the browser of the page rules) in a slot under the rate limit. */
  inSlot<T>(send: () => Promise<T>): Promise<T> {
    return this.#limiter ? this.#limiter.hold(send) : send();
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function describeTransportError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  switch (code) {
    case 'ECONNREFUSED': return 'connection refused';
    case 'ENOTFOUND': return 'host not found';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT': return 'timed out';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET': return 'connection reset';
    default: return e.message ?? String(err);
  }
}
