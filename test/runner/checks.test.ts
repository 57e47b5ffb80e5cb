import { describe, expect, it } from 'vitest';
import { jsonContentType, jsonObjectBody, matchesSchema } from '../../src/checks/json.js';
import { noSecretEcho } from '../../src/checks/secrets.js';
import { noServerError, status } from '../../src/checks/status.js';
import { accessTokenIsJwt, expiresInPositiveInteger, refreshTokenPresent, serverTimeNear, tokenTypeBearer } from '../../src/checks/token.js';
import type { HttpResponse } from '../../src/targets/http.js';

const res = (s: number, body: unknown = '', type = 'application/json'): HttpResponse => ({
  status: s,
  headers: type ? { 'content-type': type } : {},
  text: typeof body === 'string' ? body : JSON.stringify(body),
  durationMs: 1,
});
const verdict = (f: { verdict: string }) => f.verdict;

describe('status', () => {
  it('passes the stated code, is non_strict on another code of the class, fails otherwise', () => {
    expect(verdict(status(400)(res(400)))).toBe('passed');
    expect(verdict(status(401)(res(403)))).toBe('non_strict');
    expect(verdict(status(400)(res(200)))).toBe('failed');
    expect(verdict(status(200)(res(204)))).toBe('non_strict');
  });
  it('always fails a 5xx, even where a 5xx is in the same class', () => {
    expect(verdict(status(503)(res(500)))).toBe('failed');
    expect(verdict(noServerError(res(502)))).toBe('failed');
    expect(verdict(noServerError(res(404)))).toBe('passed');
  });
});

describe('JSON media type', () => {
  it('reads charset parameters leniently and other +json types as non_strict', () => {
    expect(verdict(jsonContentType(res(200, {}, 'application/json; charset=utf-8')))).toBe('passed');
    expect(verdict(jsonContentType(res(400, {}, 'application/problem+json')))).toBe('non_strict');
    expect(verdict(jsonContentType(res(400, '<p>x</p>', 'text/html')))).toBe('failed');
    expect(verdict(jsonContentType(res(400, '', '')))).toBe('failed');
  });
  it('wants an object body', () => {
    expect(verdict(jsonObjectBody(res(400, { title: 'x' })))).toBe('passed');
    expect(verdict(jsonObjectBody(res(400, '[1]')))).toBe('failed');
    expect(verdict(jsonObjectBody(res(400, 'not json')))).toBe('failed');
  });
  it('validates schemas and allows extra fields', () => {
    const check = matchesSchema('s', { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } });
    expect(verdict(check(res(200, { a: 1, extra: true })))).toBe('passed');
    const f = check(res(200, { a: '1' }));
    expect(f.verdict).toBe('failed');
    expect(f.detail).toContain('/a must be integer');
  });
});

describe('token response fields', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIiwiZXhwIjoxfQ.c2ln';
  it('token_type: Bearer in any case', () => {
    expect(verdict(tokenTypeBearer(res(200, { token_type: 'bearer' })))).toBe('passed');
    expect(verdict(tokenTypeBearer(res(200, { token_type: 'mac' })))).toBe('failed');
    expect(verdict(tokenTypeBearer(res(200, {})))).toBe('failed');
  });
  it('expires_in: a positive integer, not a numeric string', () => {
    expect(verdict(expiresInPositiveInteger(res(200, { expires_in: 86400 })))).toBe('passed');
    expect(verdict(expiresInPositiveInteger(res(200, { expires_in: '86400' })))).toBe('failed');
    expect(verdict(expiresInPositiveInteger(res(200, { expires_in: 0 })))).toBe('failed');
    expect(verdict(expiresInPositiveInteger(res(200, { expires_in: 1.5 })))).toBe('failed');
  });
  it('server_time: seconds near the reference, and milliseconds are named', () => {
    expect(verdict(serverTimeNear(1_000_000)(res(200, { server_time: 1_000_100 })))).toBe('passed');
    const ms = serverTimeNear(1_700_000_000)(res(200, { server_time: 1_700_000_000_000 }));
    expect(ms.verdict).toBe('failed');
    expect(ms.detail).toContain('milliseconds');
    expect(verdict(serverTimeNear(1)(res(200, {})))).toBe('failed');
  });
  it('access_token: a decodable JWT', () => {
    expect(verdict(accessTokenIsJwt(res(200, { access_token: jwt })))).toBe('passed');
    expect(verdict(accessTokenIsJwt(res(200, { access_token: 'opaque-token-value' })))).toBe('failed');
  });
  it('refresh_token: non-empty string', () => {
    expect(verdict(refreshTokenPresent(res(200, { refresh_token: 'r' })))).toBe('passed');
    expect(verdict(refreshTokenPresent(res(200, { refresh_token: '' })))).toBe('failed');
  });
});

describe('no secret echo', () => {
  it('fails when a sent secret comes back, and never prints it', () => {
    const f = noSecretEcho(['super-secret-value'])(res(400, { detail: 'bad super-secret-value' }));
    expect(f.verdict).toBe('failed');
    expect(f.detail).not.toContain('super-secret-value');
    expect(verdict(noSecretEcho(['super-secret-value'])(res(400, { detail: 'bad' })))).toBe('passed');
  });
});
