/**
 * `POST /oauth2/access_token` (§4.1): the HTTP face of the two grants. This module owns the token endpoint's
 * response shape (§2.3) and its error format: JSON, also on error (§4.1), with a `hint` naming the bad parameter,
 * never quoting a received secret. Errors stay `application/json` although the live service sends problem+json
 * here (docs/field-notes.md): §4.1 states application/json "(also on error)" and the refusal rules check exactly
 * that, so the strict reference follows the spec (docs/emulator.md, "Error content types").
 */
import { addressedAccount } from '../account-address.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bodyEncoding, objectBody, UnsupportedBody } from '../body.js';
import type { EmulatorContext, RouteOptions } from '../context.js';
import { methodNotAllowed, ProblemError, problemBody, toProblem, type Problem } from '../errors.js';
import { clientOrigin } from '../origin.js';
import { crashOnOddQuery } from '../api/bearer.js';
import { authorizationCodeGrant, refreshTokenGrant, type IssuedTokens } from './grants.js';
import type { IssueSite } from './issue.js';
import { checkParam, invalid, TokenParams } from './params.js';
import { subdomainRoute } from './subdomain.js';

export const TOKEN_PATH = '/oauth2/access_token';

export async function tokenRoutes(app: FastifyInstance, { ctx }: RouteOptions): Promise<void> {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => sendTokenError(ctx, request, reply, err));
  app.post(TOKEN_PATH, async (request, reply) => {
    // Only for the `token-endpoint-down` fault: the token store is unreachable.
    if (ctx.faults.isOn('token-endpoint-down')) throw new ProblemError({ status: 503, detail: 'The token store is unavailable' });
    const params = new TokenParams(readBody(ctx, request), ctx.faults, ctx.variations);
    // Only for the `token-lookup-crash-on-invalid-utf8` fault: a store that takes only UTF-8 breaks on a looked-up value
    // that came with bytes that are not UTF-8 (read here as replacement characters).
    if (ctx.faults.isOn('token-lookup-crash-on-invalid-utf8') && (['code', 'client_id', 'client_secret', 'redirect_uri'] as const).some((m) => String(params.raw(m) ?? '').includes('\uFFFD'))) {
      throw new ProblemError({ status: 500, detail: 'invalid byte sequence for encoding "UTF8"' });
    }
    const addressed = addressedAccount(request.raw);
    const tokens = await exchange(ctx, params, { host: clientOrigin(ctx, request).host, ...(addressed ? { addressed } : {}) });
    const type = ctx.faults.isOn('token-response-text-plain') ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
    const body = tokenResponse(ctx, tokens);
    if (params.raw('grant_type') === 'refresh_token') {
      if (ctx.faults.isOn('refresh-answer-without-expires-in')) delete body.expires_in;
      // Only for the `refresh-answer-without-refresh-token` fault: the refresh answer names no successor (the old token is spent).
      if (ctx.faults.isOn('refresh-answer-without-refresh-token')) delete body.refresh_token;
    }
    return noStore(ctx, reply).code(200).header('content-type', type).send(JSON.stringify(body));
  });
  // Only for the `token-via-get` fault: a GET with the request fields in its query is exchanged like a POST.
  app.addHook('onRequest', async (request, reply) => {
    crashOnOddQuery(ctx, request.url);
    if (!ctx.faults.isOn('token-via-get') || request.method !== 'GET' || !request.url.startsWith(`${TOKEN_PATH}?`)) return undefined;
    const query = Object.fromEntries(new URLSearchParams(request.url.slice(TOKEN_PATH.length + 1)));
    const tokens = await exchange(ctx, new TokenParams(query, ctx.faults, ctx.variations), { host: clientOrigin(ctx, request).host });
    return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(tokenResponse(ctx, tokens)));
  });
  methodNotAllowed(app, TOKEN_PATH, ['POST']);
  subdomainRoute(app, ctx);
}

function readBody(ctx: EmulatorContext, request: FastifyRequest): Record<string, unknown> {
  const sniffed = ctx.faults.isOn('token-sniffs-content-type') ? sniffJson(request) : undefined;
  if (sniffed) return sniffed;
  if (request.body instanceof UnsupportedBody || request.body === undefined) {
    throw invalid('Check the request Content-Type', 'The body must be application/json or application/x-www-form-urlencoded');
  }
  if (bodyEncoding(request) === 'form' && ctx.faults.isOn('reject-form-encoded')) {
    throw invalid('Check the request Content-Type', 'Form-encoded bodies are not accepted');
  }
  const unwrapped = Array.isArray(request.body) && ctx.faults.isOn('token-body-array-unwrapped') ? request.body[0] : request.body;
  const body = objectBody(unwrapped);
  if (!body) throw invalid('Check the request body', 'The body must be an object of token request parameters');
  return body;
}

/** Only for the `token-sniffs-content-type` fault: a body of another media type read as JSON when it parses. */
function sniffJson(request: FastifyRequest): Record<string, unknown> | undefined {
  if (bodyEncoding(request) !== 'other' || !request.rawBody) return undefined;
  try {
    return objectBody(JSON.parse(request.rawBody.toString('utf8')));
  } catch {
    return undefined;
  }
}

function exchange(ctx: EmulatorContext, params: TokenParams, site: IssueSite): Promise<IssuedTokens> {
  // Only for the `grant-chosen-by-fields` fault: the grant is the one whose credential the body carries.
  if (ctx.faults.isOn('grant-chosen-by-fields')) {
    if (params.has('refresh_token') && !params.has('code')) return refreshTokenGrant(ctx, params, site);
    if (params.has('code') && !params.has('refresh_token')) return authorizationCodeGrant(ctx, params, site);
  }
  // Only for the `accept-unknown-grant-type` fault: every grant_type but refresh_token, of any JSON type or none, is the code grant.
  if (ctx.faults.isOn('accept-unknown-grant-type')) return params.raw('grant_type') === 'refresh_token' ? refreshTokenGrant(ctx, params, site) : authorizationCodeGrant(ctx, params, site);
  const grantType = params.optional('grant_type');
  if (grantType === 'refresh_token') return refreshTokenGrant(ctx, params, site);
  if (grantType === 'authorization_code') return authorizationCodeGrant(ctx, params, site);
  if (grantType === undefined) throw invalid(checkParam('grant_type'), 'The request is missing the required `grant_type` parameter');
  throw invalid(checkParam('grant_type'), 'The grant type is not supported', 'unsupported_grant_type');
}

/** §2.3, with the response-shape faults applied in this one place. */
function tokenResponse(ctx: EmulatorContext, tokens: IssuedTokens): Record<string, unknown> {
  const f = ctx.faults;
  const body: Record<string, unknown> = {
    token_type: f.isOn('token-type-mac') ? 'mac' : 'Bearer',
    expires_in: expiresIn(ctx, tokens.expiresIn),
    // Only for the `access-token-bearer-prefixed` fault: the value is sent as the Authorization header's text.
    access_token: f.isOn('access-token-bearer-prefixed') ? `Bearer ${tokens.accessToken}` : tokens.accessToken,
  };
  if (f.isOn('token-type-missing')) delete body.token_type;
  if (!f.isOn('drop-refresh-token')) body.refresh_token = tokens.refreshToken;
  // The `server-time-skewed` variation: the server's clock runs 3 minutes ahead of the emulator's control clock.
  // The `server-time-local-zone` fault: a UTC+3 wall clock read as UTC.
  const skew = ctx.variations.isOn('server-time-skewed') ? 180 : ctx.faults.isOn('server-time-local-zone') ? 3 * 3600 : 0;
  if (!f.isOn('drop-server-time')) body.server_time = f.isOn('server-time-in-ms') ? ctx.clock.nowMs() + skew * 1000 : ctx.clock.nowSeconds() + skew;
  if (f.isOn('server-time-as-string') && body.server_time !== undefined) body.server_time = String(body.server_time);
  return body;
}

/**
 * expires_in as sent: the lifetime in seconds, unless a fault sends it as a string (`expires-in-as-string`), in
 * milliseconds (`expires-in-ms`), or as the JWT's exp minus the clock read in milliseconds (`expires-in-negative`).
 */
function expiresIn(ctx: EmulatorContext, seconds: number): number | string {
  const f = ctx.faults;
  if (f.isOn('expires-in-as-string')) return String(seconds);
  if (f.isOn('expires-in-ms')) return seconds * 1000;
  if (f.isOn('expires-in-negative')) return ctx.clock.nowSeconds() + seconds - ctx.clock.nowMs();
  return seconds;
}

function sendTokenError(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const p = tokenProblem(err);
  const f = ctx.faults;
  if (p.status === 413 && f.isOn('crash-on-large-body')) return reply.code(500).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(problemBody({ status: 500, detail: 'Out of memory' })));
  if (p.status >= 500) return reply.code(p.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(problemBody(p)));

  let shown: Problem = p;
  if (f.isOn('echo-secret-in-error') || (f.isOn('echo-refresh-token-in-error') && objectBody(request.body)?.grant_type === 'refresh_token')) {
    const body = objectBody(request.body);
    const received = body ? new TokenParams(body, f).receivedSecrets() : '';
    if (received) shown = { ...p, detail: `${p.detail} (received ${received})` };
  }
  // The `token-errors-401` variation: client authentication and revoked refresh tokens answered 401 (RFC 6749 §5.2; the live service).
  const as401 = ctx.variations.isOn('token-errors-401') && p.status === 400 && (p.error === 'invalid_client' || p.hint === 'Token has been revoked');
  const status = f.isOn('error-status-200') && p.status === 400 ? 200 : as401 ? 401 : p.status;
  // Only for the `grant-refusals-text-plain` fault: the refusals a valid-looking exchange meets late (a wrong secret, a
  // spent or expired code, a spent refresh token) come from another layer than the request checks, as plain text.
  if (f.isOn('grant-refusals-text-plain') && lateRefusal(p)) {
    return noStore(ctx, reply).code(status).header('content-type', 'text/plain; charset=utf-8').send(shown.detail);
  }
  if (f.isOn('error-as-html')) {
    const html = `<!doctype html><html><head><title>${p.status} Error</title></head><body><h1>${escapeHtml(shown.detail)}</h1></body></html>`;
    return reply.code(status).header('content-type', 'text/html; charset=utf-8').send(html);
  }
  const type = ctx.variations.isOn('token-errors-problem-json') ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8';
  return noStore(ctx, reply).code(status).header('content-type', type).send(JSON.stringify(problemBody(as401 ? { ...shown, status: 401 } : shown)));
}

const LATE_REFUSALS = new Set(['Authorization code has been revoked', 'Authorization code has expired', 'Token has been revoked']);
const lateRefusal = (p: Problem): boolean => LATE_REFUSALS.has(p.hint ?? '') || (p.hint === checkParam('client_secret') && p.detail === 'Client authentication failed');

/** The spec names 400 for every invalid exchange, so framework refusals of the body (media type, parse) are 400 here too. */
function tokenProblem(err: unknown): Problem {
  if (err instanceof ProblemError) return err;
  const p = toProblem(err);
  if (p.status === 415) return { status: 400, detail: p.detail, hint: 'Check the request Content-Type', error: 'invalid_request' };
  if (p.status === 400) return { ...p, hint: 'Check the request body', error: 'invalid_request' };
  return p;
}

/** RFC 6749 §5.1: token answers (and the endpoint's errors, which may quote a request) are never cached. */
function noStore(ctx: EmulatorContext, reply: FastifyReply): FastifyReply {
  return ctx.faults.isOn('token-cacheable') || ctx.variations.isOn('token-no-cache-control') ? reply : reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
