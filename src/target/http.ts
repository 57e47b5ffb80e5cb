/**
 * The one HTTP client of the kit (undici). Every exchange a rule makes goes through a Recorder so the
 * report can show it and replay it; transport failures become TransportError, which the runner turns into `errored`.
 */
import { Agent, request as undiciRequest } from 'undici';

export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers?: Record<string, string>;
  /** Raw body bytes or text, sent as is. */
  readonly body?: string | Buffer;
}

export interface HttpResponse {
  readonly status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  readonly headers: Record<string, string>;
  readonly text: string;
  readonly durationMs: number;
}

export class TransportError extends Error {
  readonly code = 'ERR_TRANSPORT';
  constructor(readonly url: string, readonly reason: string, options?: { cause?: unknown }) {
    super(`${reason} (${url})`, options);
  }
}

export interface HttpClientOptions {
  /** Per-request time limit for headers and body, in milliseconds. */
  readonly timeoutMs?: number;
  readonly connections?: number;
}

export class HttpClient {
  readonly #agent: Agent;

  constructor(options: HttpClientOptions = {}) {
    const timeout = options.timeoutMs ?? 10_000;
    this.#agent = new Agent({
      headersTimeout: timeout,
      bodyTimeout: timeout,
      connectTimeout: Math.min(timeout, 5_000),
      connections: options.connections ?? 32,
      keepAliveTimeout: 10_000,
    });
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
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
