/**
 * `GET {auth_url}/oauth` (§4.1): the access-granting page, a real HTML page for a real browser. It shows the
 * integration's logo, name and permissions (behaviour 1); asks an unauthenticated user to log in, then offers the
 * accounts where the user is an administrator, exactly one for a private integration (behaviour 2); Allow and Deny
 * redirect as behaviour 3 and 4 say, through the same `decideConsent` as the control API. Modes (§4.1 `mode`):
 * `popup`, the grant window closes and the main window goes to the Redirect URI; `post_message`, the redirect
 * happens inside the opened window, which keeps its opener so the integration can report back with postMessage.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext, RouteOptions } from '../context.js';
import { methodNotAllowed, ProblemError } from '../errors.js';
import { objectBody, parseOAuthQuery } from '../body.js';
import { decideConsent } from '../oauth/consent.js';
import { clientOrigin } from '../origin.js';
import { accountChoices, integrationById, lifecycle } from '../oauth/lifecycle.js';
import { sameSecret } from '../oauth/params.js';
import type { Integration } from '../world.js';
import { LOGO_HEIGHT, LOGO_WIDTH, logoPng } from './logo.js';

export const PAGE_PATH = '/oauth';
const SESSION_COOKIE = 'emu_session';

type Mode = 'popup' | 'post_message' | undefined;

interface PageQuery {
  readonly integration: Integration;
  readonly state?: string;
  readonly mode: Mode;
  /** Read only under the `page-follows-redirect-uri` fault: the page takes no redirect_uri (§4.1). */
  readonly redirectUri?: string;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function html(reply: FastifyReply, status: number, title: string, body: string, framable = false): FastifyReply {
  if (!framable) reply.header('x-frame-options', 'DENY');
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(`<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>`
      + '<meta name="viewport" content="width=device-width, initial-scale=1">'
      + '<style>body{font-family:sans-serif;max-width:40rem;margin:2rem auto}label{display:block;margin:.3rem 0}button{margin:.5rem .5rem 0 0}</style>'
      + `</head><body>${body}</body></html>`);
}

function pageError(status: number, detail: string): ProblemError {
  return new ProblemError({ status, detail });
}

/** One string or absent; a repeated or bracketed parameter is a 400, never a crash. */
function single(source: Record<string, unknown>, name: string): string | undefined {
  const v = source[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw pageError(400, `The ${name} parameter must be given once, as a plain value`);
  return v;
}

function readQuery(ctx: EmulatorContext, source: Record<string, unknown>): PageQuery {
  const clientId = single(source, 'client_id');
  if (clientId === undefined) throw pageError(400, 'The client_id parameter is required');
  const integration = integrationById(ctx, clientId);
  if (!integration) throw pageError(404, 'No integration has this client_id');
  const state = single(source, 'state');
  const rawMode = single(source, 'mode');
  const mode: Mode = rawMode === 'popup' || rawMode === 'post_message' ? rawMode : undefined;
  const redirectUri = ctx.faults.isOn('page-follows-redirect-uri') ? absoluteUrl(single(source, 'redirect_uri')) : undefined;
  return { integration, mode, ...(state === undefined ? {} : { state }), ...(redirectUri === undefined ? {} : { redirectUri }) };
}

function absoluteUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || !URL.canParse(raw)) return undefined;
  return new URL(raw).toString();
}

/** Only for the `page-follows-redirect-uri` fault: the decision's query, sent to the address the page was given. */
function followedRedirect(location: string, redirectUri: string): string {
  const to = new URL(redirectUri);
  for (const [k, v] of new URL(location).searchParams) to.searchParams.append(k, v);
  return to.toString();
}

function sessionOf(ctx: EmulatorContext, request: FastifyRequest) {
  const m = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([A-Za-z0-9_-]+)`).exec(request.headers.cookie ?? '');
  return m ? lifecycle(ctx).sessions.get(m[1]!) : undefined;
}

function pageUrl(q: PageQuery): string {
  const params = new URLSearchParams({ client_id: q.integration.clientId });
  if (q.state !== undefined) params.set('state', q.state);
  if (q.mode) params.set('mode', q.mode);
  if (q.redirectUri) params.set('redirect_uri', q.redirectUri);
  return `${PAGE_PATH}?${params.toString()}`;
}

function loginPage(reply: FastifyReply, q: PageQuery, status = 200, error = '', framable = false): FastifyReply {
  return html(reply, status, 'Log in', `<h1>Log in to grant access</h1>
<p>${escapeHtml(q.integration.name)} asks for access to your account.</p>
${error ? `<p id="login-error" role="alert">${escapeHtml(error)}</p>` : ''}
<form id="login-form" method="post" action="${PAGE_PATH}/login">
<label>Login <input name="login" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<input type="hidden" name="return" value="${escapeHtml(pageUrl(q))}">
<button id="login" type="submit">Log in</button>
</form>`, framable);
}

function grantPage(ctx: EmulatorContext, reply: FastifyReply, q: PageQuery, formToken: string): FastifyReply {
  const { integration } = q;
  const accounts = accountChoices(ctx, integration);
  const permissions = ctx.faults.isOn('page-hides-permissions') ? ''
    : `<h2>Requested permissions</h2><ul id="permissions">${integration.scopes.map((s) => `<li data-scope="${escapeHtml(s)}">${escapeHtml(s)}</li>`).join('')}</ul>`;
  // The `grant-page-account-select` variation offers the accounts as a select's options; the
  // `private-page-no-account` fault offers a private integration's page no account at all.
  const shown = ctx.faults.isOn('private-page-no-account') && integration.clientId === ctx.world.privateIntegration.clientId ? [] : accounts;
  const choices = ctx.variations.isOn('grant-page-account-select')
    ? `<select name="account_id">${shown.map((a) => `<option value="${a.id}">${escapeHtml(a.name)} (${escapeHtml(a.subdomain)})</option>`).join('')}</select>`
    : shown.map((a, i) =>
      `<label><input type="radio" name="account_id" value="${a.id}"${i === 0 ? ' checked' : ''}> ${escapeHtml(a.name)} (${escapeHtml(a.subdomain)})</label>`).join('\n');
  return html(reply, 200, `Grant access to ${integration.name}`, `<img id="logo" src="${PAGE_PATH}/logo/${encodeURIComponent(integration.clientId)}.png" width="${LOGO_WIDTH}" height="${LOGO_HEIGHT}" alt="${escapeHtml(integration.name)} logo">
<h1 id="integration-name">${escapeHtml(integration.name)}</h1>
${permissions}
<form id="grant-form" method="post" action="${PAGE_PATH}/decide">
<fieldset id="accounts"><legend>Account</legend>
${choices}
</fieldset>
<input type="hidden" name="client_id" value="${escapeHtml(integration.clientId)}">
${q.state === undefined ? '' : `<input type="hidden" name="state" value="${escapeHtml(q.state)}">`}
${q.mode ? `<input type="hidden" name="mode" value="${q.mode}">` : ''}
${q.redirectUri ? `<input type="hidden" name="redirect_uri" value="${escapeHtml(q.redirectUri)}">` : ''}
<input type="hidden" name="form_token" value="${formToken}">
<button id="allow" type="submit" name="decision" value="allow">Allow</button>
<button id="deny" type="submit" name="decision" value="deny">Deny</button>
</form>`);
}

/** popup: the grant window sends its opener to the Redirect URI and closes; without an opener it goes itself. */
function popupFinish(reply: FastifyReply, location: string): FastifyReply {
  const target = JSON.stringify(location).replace(/</g, '\\u003c');
  return html(reply, 200, 'Access granted', `<p>Returning to the integration…</p>
<script>(function () { var target = ${target};
if (window.opener && !window.opener.closed) { window.opener.location.href = target; window.close(); } else { window.location.replace(target); } })();</script>`);
}

export async function pageRoutes(app: FastifyInstance, { ctx }: RouteOptions): Promise<void> {
  // HTML errors for a page a person looks at; the status codes stay those of the rest of the emulator.
  app.setErrorHandler((err: unknown, _request: FastifyRequest, reply: FastifyReply) => {
    const p = err instanceof ProblemError ? err : pageError(400, 'The request could not be handled');
    return html(reply, p.status, 'Error', `<h1>Error</h1><p id="error">${escapeHtml(p.detail)}</p>`);
  });

  app.get(PAGE_PATH, async (request, reply) => {
    const query = parseOAuthQuery(request.raw.url ?? '');
    const f = ctx.faults;
    if (f.isOn('page-crash-on-repeated-param') && Object.values(query).some((v) => typeof v !== 'string')) throw new ProblemError({ status: 500, detail: 'Unexpected parameter shape' });
    // Only for the `page-unknown-client-open-redirect` fault: an unknown client's redirect_uri is followed with the error.
    if (f.isOn('page-unknown-client-open-redirect') && typeof query.redirect_uri === 'string' && (typeof query.client_id !== 'string' || !integrationById(ctx, query.client_id))) {
      return reply.code(302).header('location', `${query.redirect_uri}?error=invalid_client`).send();
    }
    if (f.isOn('page-unknown-client-redirects') && (typeof query.client_id !== 'string' || !integrationById(ctx, query.client_id))) {
      return reply.code(302).header('location', `${ctx.world.integration.redirectUri}?error=invalid_client`).send();
    }
    // Only for the `page-unknown-client-meta-refresh` fault: an unknown client's redirect_uri is followed by a 200 page
    // that refreshes itself there (no 3xx, no Location).
    if (f.isOn('page-unknown-client-meta-refresh') && typeof query.redirect_uri === 'string' && (typeof query.client_id !== 'string' || !integrationById(ctx, query.client_id))) {
      return html(reply, 200, 'Redirecting', `<meta http-equiv="refresh" content="0; url=${escapeHtml(`${query.redirect_uri}?error=invalid_client`)}"><p>Redirecting…</p>`);
    }
    const q = readQuery(ctx, query);
    // The `grant-page-coop` variation: in post_message mode the page isolates itself from its opener (COOP same-origin),
    // so the integration's page at the Redirect URI has no opener to report to.
    if (q.mode === 'post_message' && ctx.variations.isOn('grant-page-coop')) reply.header('cross-origin-opener-policy', 'same-origin');
    const session = sessionOf(ctx, request);
    if (!session && !f.isOn('page-skips-login')) return loginPage(reply, q, 200, '', f.isOn('page-framable'));
    return grantPage(ctx, reply, q, session?.formToken ?? 'none');
  });
  methodNotAllowed(app, PAGE_PATH, ['GET']);

  app.post(`${PAGE_PATH}/login`, async (request, reply) => {
    const body = objectBody(request.body) ?? {};
    const back = single(body, 'return') ?? '';
    if (!back.startsWith(`${PAGE_PATH}?`)) throw pageError(400, 'The login form was not sent from the access-granting page');
    const q = readQuery(ctx, Object.fromEntries(new URLSearchParams(back.slice(PAGE_PATH.length + 1))));
    const { admin } = ctx.world;
    const login = single(body, 'login') ?? '';
    const password = single(body, 'password') ?? '';
    if (login !== admin.login || !admin.password || !sameSecret(password, admin.password)) return loginPage(reply, q, 401, 'Wrong login or password');
    const id = randomBytes(24).toString('base64url');
    lifecycle(ctx).sessions.set(id, { userId: admin.id, formToken: randomBytes(16).toString('base64url') });
    return reply
      .code(303)
      .header('set-cookie', `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`)
      .header('location', pageUrl(q))
      .send();
  });
  methodNotAllowed(app, `${PAGE_PATH}/login`, ['POST']);

  app.post(`${PAGE_PATH}/decide`, async (request, reply) => {
    const body = objectBody(request.body) ?? {};
    const session = sessionOf(ctx, request);
    const skipLogin = ctx.faults.isOn('page-skips-login');
    if (!session && !skipLogin) throw pageError(401, 'Log in first');
    // The anti-forgery token is the session's own (RFC 6749 §10.12): a decision posted without it, or with another
    // session's, was not made on this user's page.
    // The `page-csrf-token-optional` fault compares the token only when the form carries one.
    const tokenLeftOut = ctx.faults.isOn('page-csrf-token-optional') && single(body, 'form_token') === undefined;
    if (session && !ctx.faults.isOn('page-csrf-unchecked') && !tokenLeftOut && single(body, 'form_token') !== session.formToken) throw pageError(403, 'The form is stale; open the page again');
    const q = readQuery(ctx, body);
    const decision = single(body, 'decision');
    if (decision !== 'allow' && decision !== 'deny') throw pageError(400, 'Choose Allow or Deny');
    const rawAccount = single(body, 'account_id');
    const accountId = rawAccount === undefined ? undefined : Number(rawAccount);
    if (accountId !== undefined && !Number.isSafeInteger(accountId)) throw pageError(400, 'Choose an account');
    const outcome = decideConsent(ctx, {
      clientId: q.integration.clientId, decision,
      ...(q.state === undefined ? {} : { state: q.state }),
      ...(accountId === undefined ? {} : { accountId }),
      ...(session ? { userId: session.userId } : {}),
    }, { host: clientOrigin(ctx, request).host });
    const f = ctx.faults;
    const followed = q.redirectUri ? followedRedirect(outcome.location, q.redirectUri) : outcome.location;
    const location = decision === 'allow' && f.isOn('page-allow-redirect-carries-secret')
      ? `${followed}${followed.includes('?') ? '&' : '?'}client_secret=${encodeURIComponent(q.integration.clientSecret)}` : followed;
    const closesIntoOpener = (q.mode === 'popup' && !f.isOn('popup-mode-ignored')) || (q.mode === 'post_message' && f.isOn('post-message-mode-ignored'));
    if (closesIntoOpener) return popupFinish(reply, location);
    return reply.code(303).header('location', location).header('cache-control', 'no-store').send();
  });
  methodNotAllowed(app, `${PAGE_PATH}/decide`, ['POST']);

  app.get<{ Params: { file: string } }>(`${PAGE_PATH}/logo/:file`, async (request, reply) => {
    const clientId = request.params.file.replace(/\.png$/, '');
    if (!integrationById(ctx, clientId)) throw pageError(404, 'No integration has this client_id');
    return reply.code(200).header('content-type', 'image/png').header('cache-control', 'max-age=3600').send(logoPng());
  });
}
