/**
 * The checks of the access area under the readings of docs/verdicts.md (issue 19, K1–K42): what passes, what is
 * non_strict, what is only recorded and what still fails.
 */
import { describe, expect, it } from 'vitest';
import { accessTokenSigned, cacheControlNoStore, distinctJti, wwwAuthenticateBearer, wwwAuthenticateError } from '../../src/checks/token-format.js';
import { accountIdRecorded, jwtExpiryMatchesExpiresIn, serverTimeNear, singleWinner, winnerRefreshObserved } from '../../src/checks/token.js';
import { exactlyOneSucceeded } from '../../src/checks/races.js';
import { jsonContentType, jsonObjectBody } from '../../src/checks/json.js';
import { status, whenAccepted, whenRefused } from '../../src/checks/status.js';
import { parameterAbsent, refererNames } from '../../src/checks/redirect.js';
import { allowOn405 } from '../../src/checks/chat-http.js';
import { hookParameterRecorded, hookSignatureValid } from '../../src/checks/hook.js';
import { hookSentOnce } from '../../src/checks/hook-count.js';
import { disconnectHookSignature } from '../../src/hook/sign.js';
import { acceptanceOf } from '../../generators/token-requests.js';
import type { HttpResponse } from '../../src/model/http.js';
import type { ReceivedHook } from '../../src/model/context.js';

const res = (statusCode: number, body?: unknown, headers: Record<string, string> = {}): HttpResponse =>
  ({ status: statusCode, headers: { 'content-type': 'application/json', ...headers }, text: body === undefined ? '' : JSON.stringify(body) }) as unknown as HttpResponse;
const verdict = (f: { verdict: string }) => f.verdict;
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (header: object, claims: object, signature = 'c2ln') => `${b64(header)}.${b64(claims)}.${signature}`;
const tokenAnswer = (claims: object, extra: object = {}, header: object = { alg: 'RS256' }) => res(200, { token_type: 'Bearer', expires_in: 3600, access_token: jwt(header, claims), refresh_token: 'r'.repeat(20), server_time: 1_000, ...extra });

describe('token answers', () => {
  it('JWT exp against expires_in: agreeing passes, off is non_strict (K1), missing is recorded (R2-A1)', () => {
    expect(verdict(jwtExpiryMatchesExpiresIn(tokenAnswer({ iat: 1_000, exp: 4_600 })))).toBe('passed');
    expect(verdict(jwtExpiryMatchesExpiresIn(tokenAnswer({ exp: 4_600 })))).toBe('passed');
    expect(verdict(jwtExpiryMatchesExpiresIn(tokenAnswer({ iat: 1_000, exp: 90_000 })))).toBe('non_strict');
    expect(verdict(jwtExpiryMatchesExpiresIn(tokenAnswer({ sub: '1' }, { server_time: undefined })))).toBe('informational');
  });

  it('server_time: a skew is recorded, a missing or non-int one fails (K4)', () => {
    expect(verdict(serverTimeNear(1_003, 5)(tokenAnswer({})))).toBe('passed');
    expect(verdict(serverTimeNear(1_180, 5)(tokenAnswer({})))).toBe('informational');
    expect(verdict(serverTimeNear(1_000)(tokenAnswer({}, { server_time: '1000' })))).toBe('failed');
    expect(verdict(serverTimeNear(1_000)(tokenAnswer({}, { server_time: 1_000_000_000_000 })))).toBe('failed');
  });

  it('any signature or MAC algorithm passes, none fails (K24)', () => {
    expect(verdict(accessTokenSigned(tokenAnswer({}, {}, { alg: 'HS256' })))).toBe('passed');
    expect(verdict(accessTokenSigned(tokenAnswer({}, {}, { alg: 'none' })))).toBe('failed');
  });

  it('distinct tokens pass without jti; equal tokens or jtis fail (K25)', () => {
    expect(verdict(distinctJti([tokenAnswer({ sid: 1 }), tokenAnswer({ sid: 2 })]))).toBe('passed');
    expect(verdict(distinctJti([tokenAnswer({ sid: 1 }), tokenAnswer({ sid: 1 })]))).toBe('failed');
    expect(verdict(distinctJti([tokenAnswer({ jti: 'a', n: 1 }), tokenAnswer({ jti: 'a', n: 2 })]))).toBe('failed');
  });

  it('no Cache-Control: no-store is non_strict (K26)', () => {
    expect(verdict(cacheControlNoStore(res(200, {}, { 'cache-control': 'no-store' })))).toBe('passed');
    expect(verdict(cacheControlNoStore(res(200, {})))).toBe('non_strict');
  });

  it('races: none winning is non_strict, two winning fail (K13)', () => {
    const won = tokenAnswer({});
    expect(verdict(singleWinner([won, res(400, { e: 1 })]))).toBe('passed');
    expect(verdict(singleWinner([res(400, { e: 1 }), res(400, { e: 1 })]))).toBe('non_strict');
    expect(verdict(singleWinner([won, won]))).toBe('failed');
    expect(verdict(exactlyOneSucceeded([res(400), res(400)]))).toBe('non_strict');
    expect(verdict(exactlyOneSucceeded([res(200), res(201)]))).toBe('failed');
  });

  it('the winner refused after a race is recorded (K14)', () => {
    expect(verdict(winnerRefreshObserved(res(200, {})))).toBe('passed');
    expect(verdict(winnerRefreshObserved(res(400, {})))).toBe('informational');
  });

  it('the account answer id is recorded (K33)', () => {
    expect(verdict(accountIdRecorded(7)(res(200, { id: 7 })))).toBe('passed');
    expect(verdict(accountIdRecorded(7)(res(200, { id: 1 })))).toBe('informational');
  });
});

describe('refusals', () => {
  it('status options: an acceptance or a refusal the reading allows', () => {
    expect(verdict(status(400, { accepted: 'non_strict' })(res(200)))).toBe('non_strict');
    expect(verdict(status(400, { accepted: 'informational' })(res(200)))).toBe('informational');
    expect(verdict(status(400)(res(200)))).toBe('failed');
    expect(verdict(status(200, { refused: 'non_strict' })(res(401)))).toBe('non_strict');
    expect(verdict(status(200, { refused: 'non_strict' })(res(500)))).toBe('failed');
    expect(verdict(whenAccepted(() => ({ check: 'x', verdict: 'failed', detail: '' }))(res(400)))).toBe('passed');
    expect(verdict(whenRefused(() => ({ check: 'x', verdict: 'failed', detail: '' }))(res(200)))).toBe('passed');
  });

  it('acceptanceOf: coerced wrapped values and unmarked members are non_strict (K11, K15)', () => {
    expect(acceptanceOf({ field: 'client_secret', breakage: 'wrong-type', wrongType: 'wrapped-in-array' })).toBe('non_strict');
    expect(acceptanceOf({ field: 'client_secret', breakage: 'wrong-type', wrongType: 'other' })).toBe('failed');
    expect(acceptanceOf({ field: 'redirect_uri', breakage: 'missing' })).toBe('non_strict');
    expect(acceptanceOf({ field: 'code', breakage: 'missing' })).toBe('failed');
  });

  it('text/json and an empty {} refusal are non_strict (K8, K9)', () => {
    expect(verdict(jsonContentType(res(400, {}, { 'content-type': 'text/json' })))).toBe('non_strict');
    expect(verdict(jsonObjectBody(res(400, {})))).toBe('non_strict');
    expect(verdict(jsonObjectBody(res(400, { detail: 'x' })))).toBe('passed');
  });

  it('the Bearer challenge: missing or without error is non_strict, extra parameters pass (K30)', () => {
    expect(verdict(wwwAuthenticateBearer(res(401, {})))).toBe('non_strict');
    expect(verdict(wwwAuthenticateError('invalid_token')(res(401, {}, { 'www-authenticate': 'Bearer realm="api", error="invalid_token", error_description="x"' })))).toBe('passed');
    expect(verdict(wwwAuthenticateError('invalid_token')(res(401, {}, { 'www-authenticate': 'Bearer realm="api"' })))).toBe('non_strict');
  });

  it('a 405 passes with or without Allow (K38)', () => {
    expect(verdict(allowOn405('POST')(res(405, {})))).toBe('passed');
    expect(verdict(allowOn405('POST')(res(405, {}, { allow: 'GET' })))).toBe('non_strict');
  });
});

describe('redirects and hooks', () => {
  it('an empty state and a falsy from_widget are non_strict, a value fails (K5, K6)', () => {
    expect(verdict(parameterAbsent('state', 'x', 'empty')(new URLSearchParams('state=')))).toBe('non_strict');
    expect(verdict(parameterAbsent('state', 'x', 'empty')(new URLSearchParams('state=abc')))).toBe('failed');
    expect(verdict(parameterAbsent('from_widget', 'x', 'falsy')(new URLSearchParams('from_widget=0')))).toBe('non_strict');
    expect(verdict(parameterAbsent('from_widget', 'x', 'falsy')(new URLSearchParams('from_widget=1')))).toBe('failed');
  });

  it('referer names the account\'s address with or without a scheme; another account\'s or a bare host fails', () => {
    const names = refererNames('http://127.0.0.1:8080/_accounts/emuabc', 'account 1');
    expect(verdict(names(new URLSearchParams('referer=127.0.0.1%3A8080%2F_accounts%2Femuabc')))).toBe('passed');
    expect(verdict(names(new URLSearchParams('referer=https%3A%2F%2F127.0.0.1%3A8080%2F_accounts%2Femuabc%2F')))).toBe('passed');
    expect(verdict(names(new URLSearchParams('referer=127.0.0.1%3A8080%2F_accounts%2Femuxyz')))).toBe('failed');
    expect(verdict(names(new URLSearchParams('referer=127.0.0.1%3A8080')))).toBe('failed');
    expect(verdict(names(new URLSearchParams('code=1')))).toBe('failed');
    expect(verdict(refererNames('https://Sub.Example.com', 'account 2')(new URLSearchParams('referer=sub.example.com')))).toBe('passed');
  });

  const hook = (q: string, at = 0): ReceivedHook => ({ method: 'GET', query: new URLSearchParams(q), receivedAt: at }) as unknown as ReceivedHook;

  it('upper-case hex is non_strict, the hook client_id recorded, an identical retry non_strict (K17, K31, K32)', () => {
    const signature = disconnectHookSignature('cid', '7', 'secret');
    expect(verdict(hookSignatureValid('secret')(hook(`client_uuid=cid&account_id=7&signature=${signature}`)))).toBe('passed');
    expect(verdict(hookSignatureValid('secret')(hook(`client_uuid=cid&account_id=7&signature=${signature.toUpperCase()}`)))).toBe('non_strict');
    expect(verdict(hookParameterRecorded('client_id', 'cid', 'the integration ID')(hook('client_id=other')))).toBe('informational');
    expect(verdict(hookParameterRecorded('client_id', 'cid', 'the integration ID')(hook('account_id=7')))).toBe('failed');
    expect(verdict(hookSentOnce({ accountId: 7, first: hook('account_id=7&a=1'), again: hook('a=1&account_id=7', 200) }))).toBe('non_strict');
    expect(verdict(hookSentOnce({ accountId: 7, first: hook('account_id=7&a=1'), again: hook('account_id=7&a=2', 200) }))).toBe('failed');
  });
});
