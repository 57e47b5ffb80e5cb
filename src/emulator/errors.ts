/**
 * Problem bodies (`{title, type, status, detail}`, the live service's shape, see docs/field-notes.md) and the root error and
 * not-found handlers that keep every failure a JSON 4xx: bad input must never surface as a 5xx or a crash.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
};

export interface Problem {
  readonly status: number;
  readonly detail: string;
  readonly hint?: string;
  /** RFC 6749 §5.2 error code, for the token endpoint. */
  readonly error?: string;
}

/** An expected refusal raised by a route; rendered by whichever error handler owns the route. */
export class ProblemError extends Error implements Problem {
  readonly status: number;
  readonly detail: string;
  readonly hint?: string;
  readonly error?: string;

  constructor(problem: Problem) {
    super(problem.detail);
    this.status = problem.status;
    this.detail = problem.detail;
    if (problem.hint !== undefined) this.hint = problem.hint;
    if (problem.error !== undefined) this.error = problem.error;
  }
}

export function problemBody(p: Problem): Record<string, unknown> {
  const body: Record<string, unknown> = {
    title: TITLES[p.status] ?? 'Error',
    type: `https://developers.example/errors/${p.status}`,
    status: p.status,
    detail: p.detail,
  };
  if (p.hint !== undefined) body.hint = p.hint;
  if (p.error !== undefined) body.error = p.error;
  return body;
}

/**
 * Turns anything thrown into a problem. Framework errors keep their 4xx status with a fixed, input-free detail
 * (fastify messages can quote request data); anything else is a genuine bug and becomes a plain 500.
 */
export function toProblem(err: unknown): Problem {
  if (err instanceof ProblemError) return err;
  const fe = err as Partial<FastifyError> | undefined;
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    return { status, detail: FRAMEWORK_DETAILS[fe?.code ?? ''] ?? TITLES[status] ?? 'The request was refused' };
  }
  return { status: status >= 500 && status < 600 ? status : 500, detail: 'The emulator failed to handle the request' };
}

const FRAMEWORK_DETAILS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The JSON body is empty',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The body is not valid JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_BAD_URL: 'The request URL is malformed',
  FST_ERR_ASYNC_CONSTRAINT: 'The request could not be routed',
};

/**
 * The account API's error type, exactly as the live service sends it (docs/field-notes.md): one public client
 * recognises an API error only by this literal value, so it carries no `charset` parameter (JSON is UTF-8 anyway).
 */
export const PROBLEM_JSON = 'application/problem+json';
const JSON_TYPE = 'application/json; charset=utf-8';

/** Problems under `/api/` (the account API, its lists and records, unknown paths and methods there) are problem+json; the rest JSON. */
export function problemContentType(url: string): string {
  return url.startsWith('/api/') ? PROBLEM_JSON : JSON_TYPE;
}

export function sendProblem(reply: FastifyReply, p: Problem, contentType = problemContentType(reply.request.url)): FastifyReply {
  return reply.code(p.status).header('content-type', contentType).send(jsonBytes(problemBody(p)));
}

/** JSON as bytes: fastify appends `; charset=utf-8` to a JSON type sent as a string, bytes go out with the type as set. */
export function jsonBytes(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

/**
 * The detail of a 404 for a path the emulator does not serve (a part of the live service's API it leaves out, or no
 * part of it at all): said as such, so a client's author does not take it for a missing record. The path is not echoed.
 */
export function notServedDetail(method: string): string {
  return `The emulator does not serve ${method} on this path (docs/emulator.md lists the paths it serves, under "What the emulator does not serve" the rest)`;
}

/** Root handlers (the path is not echoed: a misdirected client may have put a secret in it); route modules that need another error format (the token endpoint) set their own in their scope. */
export function installRootHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const p = toProblem(err);
    if (p.status >= 500) request.log.error({ err }, 'unhandled emulator error');
    return sendProblem(reply, p);
  });
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    sendProblem(reply, { status: 404, detail: notServedDetail(request.method) }),
  );
}

/** Answers 405 with `Allow` for the other methods on a known path, rather than a misleading 404. */
export function methodNotAllowed(app: FastifyInstance, url: string, allowed: readonly string[]): void {
  const all = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const others = all.filter((m) => !allowed.includes(m));
  const allow = allowed.includes('GET') ? [...allowed, 'HEAD'] : [...allowed];
  app.route({
    method: others,
    url,
    handler: (_request, reply) =>
      sendProblem(reply.header('allow', allow.join(', ')), { status: 405, detail: `Allowed methods: ${allow.join(', ')}` }),
  });
}
