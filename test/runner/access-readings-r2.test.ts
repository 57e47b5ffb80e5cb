/**
 * The access checks under the second review's readings (reviews/verdicts-2026-11-27.md, R2-A1–A12; docs/verdicts.md):
 * what a correct server passes and what now fails where the spec names the value, the member or the code.
 */
import { describe, expect, it } from 'vitest';
import { acceptanceOf } from '../../generators/token-requests.js';
import { INVALID_UTF8, withInvalidUtf8In } from '../../generators/invalid-utf8.js';
import { LONG_STATES, longState } from '../../generators/oauth-state.js';
import { claimsHoldNoSecret, estimatedBits, unguessable } from '../../src/checks/token-format.js';
import { noRedirect } from '../../src/checks/http.js';
import { jwtExpiryMatchesExpiresIn, serverTimeNear, noTokenAtAnotherAddress } from '../../src/checks/token.js';
import type { HttpResponse } from '../../src/model/http.js';
import { refreshRefusalOf } from '../../specs/4.1/support.js';

const res = (statusCode: number, body?: unknown, headers: Record<string, string> = {}): HttpResponse =>
  ({ status: statusCode, headers: { 'content-type': 'application/json', ...headers }, text: body === undefined ? '' : JSON.stringify(body) }) as unknown as HttpResponse;
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (claims: object) => `${b64({ alg: 'RS256' })}.${b64(claims)}.c2ln`;
const tokenAnswer = (claims: object, extra: object = {}) => res(200, { token_type: 'Bearer', expires_in: 3600, access_token: jwt(claims), refresh_token: 'r'.repeat(24), server_time: 1_000_000, ...extra });

describe('R2-A8: grant_type is an enumeration the grant is chosen by', () => {
  it('missing, or a number or true in its place, accepted fails; the valid value wrapped is non_strict', () => {
    expect(acceptanceOf({ field: 'grant_type', breakage: 'missing' })).toBe('failed');
    expect(acceptanceOf({ field: 'grant_type', breakage: 'wrong-type', wrongType: 'other' })).toBe('failed');
    expect(acceptanceOf({ field: 'grant_type', breakage: 'wrong-type', wrongType: 'wrapped-in-array' })).toBe('non_strict');
    expect(acceptanceOf({ field: 'redirect_uri', breakage: 'missing' })).toBe('non_strict');
  });
});

describe('R2-A11: client_secret is optional on refresh', () => {
  const accepted = (m: Parameters<typeof refreshRefusalOf>[0]) => refreshRefusalOf(m)[0]!(res(200, {})).verdict;
  it('null read as no secret and accepted is non_strict; 42 or true accepted fails', () => {
    expect(accepted({ field: 'client_secret', breakage: 'wrong-type', wrongType: 'other', value: null })).toBe('non_strict');
    expect(accepted({ field: 'client_secret', breakage: 'wrong-type', wrongType: 'other', value: 42 })).toBe('failed');
    expect(accepted({ field: 'client_secret', breakage: 'wrong-type', wrongType: 'other', value: true })).toBe('failed');
    expect(accepted({ field: 'refresh_token', breakage: 'wrong-type', wrongType: 'other', value: null })).toBe('failed');
  });
});

describe('R2-A5: server_time is the time of the response', () => {
  it('within the tolerance passes, up to an hour off is recorded, beyond it fails', () => {
    expect(serverTimeNear(1_000_003, 5)(tokenAnswer({})).verdict).toBe('passed');
    expect(serverTimeNear(1_000_000 - 3_000, 5)(tokenAnswer({})).verdict).toBe('informational');
    expect(serverTimeNear(1_000_000 - 3 * 3_600, 5)(tokenAnswer({})).verdict).toBe('failed');
    expect(serverTimeNear(1_000_000 + 3_601, 300)(tokenAnswer({})).verdict).toBe('failed');
  });
});

describe('R2-A1: the JWT claims the spec does not name', () => {
  it('no exp or iat is recorded; an exp that contradicts expires_in is non_strict', () => {
    expect(jwtExpiryMatchesExpiresIn(tokenAnswer({ sub: '1' })).verdict).toBe('informational');
    expect(jwtExpiryMatchesExpiresIn(tokenAnswer({ iat: 1_000_000, exp: 1_003_600 })).verdict).toBe('passed');
    expect(jwtExpiryMatchesExpiresIn(tokenAnswer({ iat: 1_000_000, exp: 1_007_200 })).verdict).toBe('non_strict');
  });
});

describe('R2-A4: the secrets of the integration among the claims', () => {
  const clientSecret = 'client-secret-0123456789';
  const channelSecret = 'channel-secret-0123456789';
  const check = claimsHoldNoSecret([clientSecret, channelSecret], ['spent-code-0123456789']);
  it('the client or a channel secret fails; the refresh token or the spent code is recorded', () => {
    expect(check(tokenAnswer({ sub: '1' })).verdict).toBe('passed');
    expect(check(tokenAnswer({ client_secret: clientSecret })).verdict).toBe('failed');
    expect(check(tokenAnswer({ channel: { secret: channelSecret } })).verdict).toBe('failed');
    expect(check(tokenAnswer({ rt: 'r'.repeat(24) })).verdict).toBe('informational');
    expect(check(tokenAnswer({ code: 'spent-code-0123456789' })).verdict).toBe('informational');
  });
});

describe('R2-A7: a code or refresh token exchanged at another account\'s address', () => {
  it('no token passes; a token that works there fails; one it refuses (its own account\'s) is recorded', () => {
    for (const credential of ['code', 'refresh token'] as const) {
      const judge = noTokenAtAnotherAddress(credential);
      expect(judge({ exchanged: res(400, {}) }).verdict).toBe('passed');
      expect(judge({ exchanged: res(200, {}), probe: res(200, { id: 2 }) }).verdict).toBe('failed');
      expect(judge({ exchanged: res(200, {}), probe: res(401, {}) }).verdict).toBe('informational');
    }
  });
});

describe('issue 28 item 4 and R2-A10: the named edges', () => {
  it('long states of 500 and 2,000 characters, URL-safe', () => {
    expect(LONG_STATES.map((s) => s.length).slice(1)).toEqual([500, 2000]);
    expect(longState(777)).toHaveLength(777);
    expect(LONG_STATES.every((s) => /^[A-Za-z0-9._-]+$/.test(s))).toBe(true);
  });

  it('bytes that are not UTF-8 inside the string of a member the server reads', () => {
    const body = withInvalidUtf8In({ client_id: 'abc', code: 'xyz' }, 'code');
    const at = body.indexOf(INVALID_UTF8);
    expect(at).toBeGreaterThan(0);
    expect(body.subarray(0, at).toString('utf8')).toBe('{"client_id":"abc","code":"xyz');
    expect(body.subarray(at + INVALID_UTF8.length).toString('utf8')).toBe('"}');
  });
});

describe('the entropy of issued values', () => {
  it('counts only the part that varies among the samples: a constant prefix and a counter are guessable', () => {
    const counter = Array.from({ length: 16 }, (_, i) => `${'Zm9yZ2VkLWNvdW50ZXI'.repeat(3)}${String(i + 1).padStart(6, '0')}`);
    expect(estimatedBits(counter)).toBeLessThan(20);
    expect(unguessable('codes')(counter).verdict).toBe('failed');
    const random = Array.from({ length: 16 }, (_, i) => Buffer.from(Array.from({ length: 32 }, (_, j) => (i * 131 + j * 29 + (i * j) % 7) % 256)).toString('base64url'));
    expect(unguessable('codes')(random).verdict).toBe('passed');
  });
});

describe('a page that sends the browser on without a 3xx', () => {
  const page = (html: string, headers: Record<string, string> = {}) => res(200, undefined, { 'content-type': 'text/html', ...headers });
  const withText = (html: string, headers: Record<string, string> = {}) => ({ ...page(html, headers), text: html }) as HttpResponse;
  it('an error page passes; a meta refresh, a script setting the location or a Refresh header fails', () => {
    expect(noRedirect(withText('<h1>Error</h1><p>Unknown integration</p>')).verdict).toBe('passed');
    expect(noRedirect(withText('<meta http-equiv="refresh" content="0; url=https://attacker.example/cb">')).verdict).toBe('failed');
    expect(noRedirect(withText('<script>window.location.href = "https://attacker.example/cb"</script>')).verdict).toBe('failed');
    expect(noRedirect(withText('<script>location.replace("https://attacker.example/cb")</script>')).verdict).toBe('failed');
    expect(noRedirect(withText('<script>if (location == x) {}</script>')).verdict).toBe('passed');
    expect(noRedirect(withText('<p>x</p>', { refresh: '0; url=https://attacker.example/cb' })).verdict).toBe('failed');
  });
});
