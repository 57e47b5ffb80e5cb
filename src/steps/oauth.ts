/**
 * Multi-request steps of the OAuth flows (§3.1, §4.1), shared by the rules. A step that does not get what a
 * rule needs to go on throws TargetAnswer: the rule judging that answer fails, the others are skipped naming it.
 */
import { TargetAnswer } from '../errors.js';
import { STEP_OWNERS } from './owners.js';
import type { RuleContext } from '../model/context.js';
import { briefBody } from '../checks/status.js';
import type { TokenPair } from '../protocol/answers.js';
import type { BodyEncoding, TokenFields } from '../protocol/oauth.js';
import { codeGrant, refreshGrant, tokenPairOf, tokenRequest } from '../protocol/oauth.js';
import type { HttpResponse } from '../model/http.js';
import { freshCode } from './live-code.js';

export async function exchange(t: RuleContext, fields: TokenFields, encoding: BodyEncoding = 'json'): Promise<HttpResponse> {
  return t.send(tokenRequest(t.target, fields, encoding));
}

/**
 * Mints a code (through the control API, else on the access-granting page in Chromium, else the one AUTH_CODE) and
 * exchanges it as a well-behaved client would.
 */
export async function exchangeFreshCode(t: RuleContext, encoding: BodyEncoding = 'json'): Promise<HttpResponse> {
  const code = await freshCode(t);
  return exchange(t, codeGrant(t.target, code), encoding);
}

/** A working token pair, or TargetAnswer. */
export async function obtainTokens(t: RuleContext): Promise<TokenPair> {
  return tokensOf(await exchangeFreshCode(t), 'the code exchange');
}

export async function refreshTokens(t: RuleContext, refreshToken: string, options: { withSecret?: boolean } = {}): Promise<HttpResponse> {
  return exchange(t, refreshGrant(t.target, refreshToken, options));
}

/** A refresh exchange is judged by the refresh rules, a code exchange by the token-response rules. */
function isRefresh(res: HttpResponse): boolean {
  return String(res.request?.body ?? '').includes('refresh_token');
}

export function tokensOf(res: HttpResponse, what: string): TokenPair {
  const pair = res.status >= 200 && res.status < 300 ? tokenPairOf(res.text) : undefined;
  if (!pair) throw new TargetAnswer(isRefresh(res) ? STEP_OWNERS.refreshExchange : STEP_OWNERS.codeExchange, `${what} gave no token pair (status ${res.status}${briefBody(res)})`);
  return pair;
}
