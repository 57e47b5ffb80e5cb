/**
 * Before any rule of a remote run (issue 37 §4): in a few requests, does each configured URL speak the protocol, and do
 * the credentials work? A target that is not the service (an HTML page, a 404 everywhere) would otherwise get the whole
 * suite and read as dozens of failed and errored rules, and a wrong secret as server failures. A mismatch stops the
 * run at once: 3 naming the URL for a target unreachable or not the service, 2 naming the key for a setting the target
 * refuses (DESIGN.md exit codes).
 *
 * Nothing here changes the target: the token exchange carries a code no server issued (client authentication is
 * decided before the code, RFC 6749 §5.2, so invalid_client tells a refused secret from invalid_grant, and a refused
 * exchange consumes nothing), the chat requests are connects without an account_id (400 before anything is connected),
 * and the account is only read.
 */
import { randomUUID } from 'node:crypto';
import { ConfigError, TransportError, UnreachableError } from '../errors.js';
import type { HttpRequest, HttpResponse } from '../model/http.js';
import type { TargetConfig } from '../model/target.js';
import { chatPaths, chatRequest } from '../protocol/chat.js';
import { accountRequest, codeGrant, tokenRequest } from '../protocol/oauth.js';
import type { HttpClient } from './http.js';

/** A code no server issued: the exchange carrying it is refused whatever the server, and consumes nothing. */
const NOT_A_CODE = 'conformance-preflight-not-a-code';

/** A channel the run will sign chat requests for, with the keys that configure it. */
interface ConfiguredChannel {
  readonly id: string;
  readonly secret: string;
  readonly idKey: string;
  readonly secretKey: string;
}

export interface PreflightResult {
  /** One line per thing checked, for the opening of the run. */
  readonly checked: readonly string[];
  readonly requests: number;
}

/**
 * Checks the remote target's URLs and credentials; throws UnreachableError (exit 3) or ConfigError (exit 2) at the first
 * mismatch. `now` is the time the chat signature's Date carries.
 */
export async function preflight(target: TargetConfig, client: HttpClient, now: () => Date = () => new Date()): Promise<PreflightResult> {
  const checked: string[] = [];
  let requests = 0;
  const send = async (urlKey: string, req: HttpRequest): Promise<HttpResponse> => {
    requests += 1;
    try {
      return await client.send(req);
    } catch (err) {
      if (err instanceof TransportError) throw new UnreachableError(`cannot reach the target at ${urlKey} ${urlOf(target, urlKey)}: ${err.reason}`);
      throw err;
    }
  };

  // The target's own clock signs the chat requests when the control API tells it: an earlier run that stopped while
  // the clock was moved must not read as a refused CHANNEL_SECRET.
  let signedAt = now;
  if (target.controlUrl) {
    const res = await send('CONTROL_URL', { method: 'GET', url: target.controlUrl });
    const overview = jsonOf(res);
    if (res.status >= 300 || !isObject(overview)) throw notTheService(target, 'CONTROL_URL', 'GET', '', res, 'a JSON overview of the control API (docs/control-api.md)');
    if (typeof overview.now === 'number') {
      const offsetMs = overview.now * 1000 - Date.now();
      signedAt = () => new Date(now().getTime() + offsetMs);
    }
    checked.push('CONTROL_URL answers as a control API');
  }

  const token = await send('BASE_URL', tokenRequest(target, codeGrant(target, NOT_A_CODE)));
  const tokenBody = jsonOf(token);
  if (notService(token, tokenBody)) throw notTheService(target, 'BASE_URL', 'POST', '/oauth2/access_token', token, 'JSON, also on error (§4.1)');
  if (token.status === 401 || (isObject(tokenBody) && tokenBody.error === 'invalid_client')) {
    throw new ConfigError('CLIENT_SECRET', `is refused by the token endpoint at BASE_URL (${token.status}${isObject(tokenBody) && typeof tokenBody.error === 'string' ? ` ${tokenBody.error}` : ''}: the integration's CLIENT_ID and CLIENT_SECRET do not authenticate; copy both from the integration's Keys tab)`);
  }
  checked.push('BASE_URL answers the token exchange in JSON and authenticates CLIENT_ID and CLIENT_SECRET');

  await checkAccount(target, send, checked);
  for (const channel of channelsOf(target)) await checkChannel(target, channel, send, signedAt, checked);
  return { checked, requests };
}

/** The account with each configured token (200, JSON, an id), or, without one, a refusal that is not a 404 or a page. */
async function checkAccount(target: TargetConfig, send: (key: string, req: HttpRequest) => Promise<HttpResponse>, checked: string[]): Promise<void> {
  const c = target.credentials;
  const tokens: [string, string][] = [
    ...(c.longLivedToken ? [['LONG_LIVED_TOKEN', c.longLivedToken] as [string, string]] : []),
    ...(c.restrictedUser ? [['RESTRICTED_ACCESS_TOKEN', c.restrictedUser.token] as [string, string]] : []),
  ];
  if (tokens.length === 0) {
    const res = await send('BASE_URL', accountRequest(target, undefined));
    if (notService(res, jsonOf(res))) throw notTheService(target, 'BASE_URL', 'GET', '/api/v4/account', res, 'a refusal of a request without a token (401)');
    checked.push('BASE_URL answers the account API');
    return;
  }
  for (const [key, token] of tokens) {
    const res = await send('BASE_URL', accountRequest(target, token));
    if (res.status === 401 || res.status === 403) throw new ConfigError(key, `is refused by the account API at BASE_URL (GET /api/v4/account answered ${res.status}): set a token the account still grants`);
    const body = jsonOf(res);
    if (res.status !== 200 || !isObject(body) || body.id === undefined) throw notTheService(target, 'BASE_URL', 'GET', '/api/v4/account', res, 'the account as JSON with its id');
    checked.push(`${key} reads the account at BASE_URL`);
  }
}

/**
 * Two connects without an account_id: one signed with a key that is not the channel's, which must be refused in JSON
 * (403, §5.2; 400 where the server validates first), then one signed with the channel's secret, which only its data
 * may refuse (400): a 403 there is the secret refused, a 404 the channel unknown (§4.3).
 */
async function checkChannel(target: TargetConfig, ch: ConfiguredChannel, send: (key: string, req: HttpRequest) => Promise<HttpResponse>, now: () => Date, checked: string[]): Promise<void> {
  const call = { method: 'POST' as const, path: chatPaths.connect(ch.id), json: {} };
  const wrong = await send('CHAT_URL', chatRequest(call, { chatUrl: target.chatUrl, secret: `not-the-secret-${randomUUID()}`, now: now() }));
  // §4.3: 404 is a channel that does not exist, when the service says so in JSON; a 404 page is no chat interface.
  const unknownChannel = (res: HttpResponse) => res.status === 404 && jsonOf(res) !== undefined;
  if (unknownChannel(wrong)) throw new ConfigError(ch.idKey, 'names no channel of the chat interface at CHAT_URL (connect answered 404)');
  if (notService(wrong, jsonOf(wrong))) throw notTheService(target, 'CHAT_URL', 'POST', call.path, wrong, 'a JSON refusal of a wrong signature (403, §4.3, §5.2)');
  const signed = await send('CHAT_URL', chatRequest(call, { chatUrl: target.chatUrl, secret: ch.secret, now: now() }));
  if (signed.status === 403 || signed.status === 401) throw new ConfigError(ch.secretKey, `is refused by the chat interface at CHAT_URL (a connect signed with it answered ${signed.status}: the signature does not verify; copy the channel's secret)`);
  if (unknownChannel(signed)) throw new ConfigError(ch.idKey, 'names no channel of the chat interface at CHAT_URL (connect answered 404)');
  if (notService(signed, jsonOf(signed))) throw notTheService(target, 'CHAT_URL', 'POST', call.path, signed, 'JSON (§4.3)');
  checked.push(`${ch.secretKey} signs requests the chat interface at CHAT_URL verifies`);
}

function channelsOf(target: TargetConfig): ConfiguredChannel[] {
  const c = target.credentials;
  const out: ConfiguredChannel[] = [];
  if (c.channelId && c.channelSecret) out.push({ id: c.channelId, secret: c.channelSecret, idKey: 'CHANNEL_ID', secretKey: 'CHANNEL_SECRET' });
  if (c.channelId2 && c.channelSecret2) out.push({ id: c.channelId2, secret: c.channelSecret2, idKey: 'CHANNEL_ID_2', secretKey: 'CHANNEL_SECRET_2' });
  if (c.v1ChannelId && c.v1ChannelSecret) out.push({ id: c.v1ChannelId, secret: c.v1ChannelSecret, idKey: 'V1_CHANNEL_ID', secretKey: 'V1_CHANNEL_SECRET' });
  return out;
}

function urlOf(target: TargetConfig, key: string): string {
  return key === 'CONTROL_URL' ? target.controlUrl ?? '' : key === 'CHAT_URL' ? target.chatUrl : key === 'AUTH_URL' ? target.authUrl : target.baseUrl;
}

function notTheService(target: TargetConfig, key: string, method: string, path: string, res: HttpResponse, expected: string): UnreachableError {
  const type = res.headers['content-type'] ? ` ${res.headers['content-type'].split(';')[0]}` : ' without a Content-Type';
  return new UnreachableError(`the target at ${key} ${urlOf(target, key)} does not answer as the service: ${method} ${path || '/'} answered ${res.status}${type}, expected ${expected}`);
}

/**
 * An answer no server of the protocol gives to the preflight's requests: a 404 (the path is not there), or a success
 * that is not JSON (a page served for every path). A refusal that is not JSON is the service's to be judged for by the
 * rules (a server whose errors are text/plain is still the service, and its rules must fail, not be skipped).
 */
function notService(res: HttpResponse, body: unknown): boolean {
  return res.status === 404 || (res.status < 400 && body === undefined);
}

/** The JSON body of an answer that declares JSON (`application/json` or `+json`), else undefined. */
function jsonOf(res: HttpResponse): unknown {
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(res.headers['content-type'] ?? '')) return undefined;
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
