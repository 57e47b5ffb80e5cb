/**
 * The one HTTP client of the kit (undici). Every exchange a rule makes goes through a Recorder so the
 * report can show it and replay it; transport failures become TransportError, which the runner turns into `errored`.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SecureContext } from 'node:tls';
import { connect as tlsConnect } from 'node:tls';
import { Agent, EnvHttpProxyAgent, type Dispatcher, request as undiciRequest } from 'undici';
import type { ProxySettings } from '../model/target.js';
import { proxyAuthorization, proxyFor, tunnel } from './proxy.js';
import type { hostLookup } from '../host-resolve.js';
import { trustContext } from '../trust.js';
import { retryDelayMs } from '../model/retry-after.js';
import { type RateBudget, RateLimiter } from './rate-limit.js';
import { RateLimitedError, TransportError } from '../errors.js';
import type { HttpRequest, HttpResponse } from '../model/http.js';
import { senderHeader } from '../rule-scope.js';
// A hang is an answer slower than the policy's limit: a 10 MB message or a full page can take seconds (docs/verdicts.md).
import { POLICY_HANG_MS } from '../model/readings.js';

export interface HttpClientOptions {
  /** Per-request time limit for headers and body, in milliseconds. */
  readonly timeoutMs?: number;
  readonly connections?: number;
  /**
   * The budgets, first claim wins; a request no budget claims goes into an unlimited budget of its own (`other`).
   * The requests the kit sends by other means (`inSlot`: the browser of the page rules) take a slot of theirs by URL too.
   */
  readonly budgets?: readonly RateBudget[];
  /**
   * Retries of a 429 answer, honouring Retry-After (default 5 when rate limited, else 2): a 429 is never a failure in
   * itself (§8 "Rate limits: not shown"), so it is waited out before any check sees the answer (K21); one that persists
   * past the retries throws RateLimitedError, which ends the rule `errored` (R2-C20).
   */
  readonly retries429?: number;
  /** Resolves host names before DNS does (HOST_RESOLVE, ./host-resolve.ts), for every request this client sends. */
  readonly lookup?: ReturnType<typeof hostLookup>;
  /** CA certificates (PEM) trusted beside the system's (CA_FILE, ../trust.ts), for every request this client sends. */
  readonly ca?: string;
  /** The proxies (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), for every request this client sends (./proxy.ts). */
  readonly proxy?: ProxySettings;
}

/** How the client connects: the names it resolves itself and the CAs it trusts, as undici's and node:https's options. */
interface ConnectOptions {
  readonly lookup?: HttpClientOptions['lookup'];
  readonly secureContext?: SecureContext;
  readonly proxy?: ProxySettings;
}

/**
 * Bodies from this size on go through a client that reads an answer given before the body is all sent: a server may
 * refuse a large body at once and close (RFC 9110 §15.5.14; nginx does with 413), and that early answer is the
 * server's answer, to be judged, not a reset (issue 28 §8). undici reports it as EPIPE or a socket error.
 */
export const EARLY_ANSWER_BYTES = 256 * 1024;

/** A budget as the client keeps it: its limiter, and until when a 429 paused it. */
interface Lane {
  readonly name: string;
  readonly claims: (url: string) => boolean;
  readonly limiter: RateLimiter | undefined;
  pausedUntil: number;
}

/**
 * The priority of the requests sent inside `requestPriority.run(n, …)`: under a rate budget, lower goes first
 * (RateLimiter). The runner runs each rule inside the order it started in; requests outside any (the reachability
 * probe, the browser's, whose callbacks come from the driver) go first.
 */
export const requestPriority = new AsyncLocalStorage<number>();

/** The browser's requests go before any rule's (`inSlot`). */
const BROWSER_PRIORITY = -1;

export class HttpClient {
  readonly #agent: Dispatcher;
  readonly #timeoutMs: number;
  readonly #lanes: readonly Lane[];
  readonly #retries429: number;
  readonly #connect: ConnectOptions;

  constructor(options: HttpClientOptions = {}) {
    const timeout = options.timeoutMs ?? POLICY_HANG_MS;
    this.#timeoutMs = timeout;
    const budgets = [...(options.budgets ?? []), { name: 'other', claims: () => true }];
    this.#lanes = budgets.map((b) => ({ name: b.name, claims: b.claims, limiter: b.rps ? new RateLimiter({ rps: b.rps }) : undefined, pausedUntil: 0 }));
    this.#retries429 = options.retries429 ?? (this.#lanes.some((l) => l.limiter) ? 5 : 2);
    const connect = { ...(options.lookup ? { lookup: options.lookup } : {}), ...(options.ca ? { secureContext: trustContext(options.ca) } : {}) };
    this.#connect = { ...connect, ...(options.proxy ? { proxy: options.proxy } : {}) };
    const agentOptions = {
      ...(Object.keys(connect).length > 0 ? { connect } : {}),
      headersTimeout: timeout,
      bodyTimeout: timeout,
      connectTimeout: Math.min(timeout, 5_000),
      connections: options.connections ?? 32,
      keepAliveTimeout: 10_000,
    };
    // Through a proxy: undici's own, deciding per URL as curl reads the variables (the settings give them, never
    // process.env behind the settings' back: NO_PROXY unset is no host bypassed). The target's TLS (CA_FILE) goes
    // through the tunnel; the proxy's name is resolved as the target's are (HOST_RESOLVE).
    this.#agent = options.proxy
      ? new EnvHttpProxyAgent({
        ...agentOptions, ...options.proxy, noProxy: options.proxy.noProxy ?? '',
        ...(options.proxy.httpsProxy ? {} : { httpsProxy: options.proxy.httpProxy ?? '' }),
        ...(options.proxy.httpProxy ? {} : { httpProxy: '' }),
        requestTls: { ...connect }, proxyTls: { ...connect },
        // http URLs as curl sends them, the absolute URL to the proxy (a tunnel only for https).
        proxyTunnel: false,
      } as EnvHttpProxyAgent.Options)
      : new Agent(agentOptions);
  }

  /** Sends a request; a 429 pauses its budget for its Retry-After and is retried (bounded), then RateLimitedError. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const lane = this.#laneOf(req.url);
    for (let attempt = 0; ; attempt += 1) {
      const res = await this.#sendOnce(lane, req);
      if (res.status !== 429) return res;
      if (attempt >= this.#retries429) throw new RateLimitedError(req.url, attempt + 1, res.headers['retry-after'], res);
      lane.pausedUntil = Math.max(lane.pausedUntil, Date.now() + retryDelayMs(res.headers['retry-after'], attempt));
    }
  }

  async #sendOnce(lane: Lane, req: HttpRequest): Promise<HttpResponse> {
    return this.#inLane(lane, async () => {
      const started = performance.now();
      try {
        if (req.body !== undefined && Buffer.byteLength(req.body) >= EARLY_ANSWER_BYTES) {
          return { ...(await sendReadingEarlyAnswer(req, this.#timeoutMs, this.#connect)), durationMs: performance.now() - started };
        }
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

  /**
   * Runs a request to `url` the kit sends by other means (the browser of the page rules) in a slot of its budget, ahead
   * of every rule's own requests: a page's navigation times out (15 s) while it waits, a rule's request does not, and
   * a sweep of odd page queries queued before it starved the page's logins (an errored page rule in two of three runs
   * of test/browser/rate-limit.test.ts).
   */
  inSlot<T>(url: string, send: () => Promise<T>): Promise<T> {
    return this.#inLane(this.#laneOf(url), send, BROWSER_PRIORITY);
  }

  /** The name of the budget a request to `url` counts against. */
  budgetOf(url: string): string {
    return this.#laneOf(url).name;
  }

  #laneOf(url: string): Lane {
    return this.#lanes.find((l) => l.claims(url))!;
  }

  async #inLane<T>(lane: Lane, send: () => Promise<T>, priority = requestPriority.getStore() ?? 0): Promise<T> {
    while (lane.pausedUntil > Date.now()) await sleep(lane.pausedUntil - Date.now());
    return lane.limiter ? lane.limiter.hold(send, priority) : send();
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

/**
 * One exchange over its own connection with node:http, which hands over the answer as soon as its head arrives,
 * whatever happens to the rest of the request body. Once an answer has begun, a write error (EPIPE, a reset as the
 * server closes) ends the body read with what came; before it, the error is the exchange's.
 */
function sendReadingEarlyAnswer(req: HttpRequest, timeoutMs: number, connect: ConnectOptions): Promise<Omit<HttpResponse, 'durationMs'>> {
  return new Promise((resolve, reject) => {
    const url = new URL(req.url);
    const body = req.body!;
    // The sender's tag while a trace listens (undici's requests get it from the trace itself: src/runner/trace.ts).
    const headers = { ...req.headers, ...senderHeader() };
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) headers['content-length'] = String(Buffer.byteLength(body));
    const https = url.protocol === 'https:';
    const via = proxyFor(url, connect.proxy);
    let answer: { status: number; headers: IncomingHttpHeaders; chunks: Buffer[] } | undefined;
    let settled = false;
    const done = (): void => {
      if (settled || !answer) return;
      settled = true;
      resolve({ status: answer.status, headers: flattenHeaders(answer.headers), text: Buffer.concat(answer.chunks).toString('utf8') });
    };
    const failed = (err: Error): void => {
      if (answer) return done();
      if (settled) return;
      settled = true;
      reject(err);
    };
    const onAnswer = (res: import('node:http').IncomingMessage): void => {
      answer = { status: res.statusCode ?? 0, headers: res.headers, chunks: [] };
      res.on('data', (c: Buffer) => answer!.chunks.push(c));
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    };
    const common = { method: req.method, headers, agent: false as const, timeout: timeoutMs, ...(connect.lookup ? { lookup: connect.lookup as never } : {}) };
    const sendOn = (outgoing: import('node:http').ClientRequest): void => {
      outgoing.on('timeout', () => outgoing.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
      outgoing.on('error', failed);
      outgoing.end(body);
    };
    if (!via) {
      sendOn((https ? httpsRequest : httpRequest)(url, { ...common, ...(https && connect.secureContext ? { secureContext: connect.secureContext } : {}) }, onAnswer));
    } else if (!https) {
      // A forward proxy takes the absolute URL on the request line (RFC 9112 §3.2.2).
      sendOn(httpRequest({ ...common, host: via.hostname, port: via.port || 80, path: url.href, headers: { ...headers, host: url.host, ...proxyAuthorization(via) } }, onAnswer));
    } else {
      // https through the proxy's CONNECT tunnel, TLS to the target over it.
      tunnel(via, url, timeoutMs).then((socket) => {
        const tls = tlsConnect({ socket, servername: url.hostname, ...(connect.secureContext ? { secureContext: connect.secureContext } : {}) });
        sendOn(httpsRequest(url, { ...common, createConnection: () => tls }, onAnswer));
      }, failed);
    }
  });
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
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT': return `${e.message ?? code} (a certificate no trusted CA signed: CA_FILE names the CA to trust)`;
    default: return e.message ?? String(err);
  }
}
