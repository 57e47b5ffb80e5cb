import { describe, expect, it } from 'vitest';
import { jsonContentType, jsonObjectBody, matchesSchema, valueMatchesSchema } from '../../src/checks/json.js';
import { noSecretEcho } from '../../src/checks/secrets.js';
import { clientError, noServerError, observedStatus, status, statusIn } from '../../src/checks/status.js';
import { accessTokenIsJwt, expiresInPositiveInteger, refreshTokenPresent, serverTimeNear, tokenTypeBearer } from '../../src/checks/token.js';
import type { HttpResponse } from '../../src/model/http.js';
import { labelled } from '../../src/model/check.js';
import {
  absent, absentOrEmpty, arrayAt, differentFrom, distinct, equals, field, fields, isNonEmptyString, isPositiveInteger, isString, isTrue, jsonAt, oneOf,
  stringAt, valueField, valueFields,
} from '../../src/checks/fields.js';
import { historyHolds } from '../../src/checks/chat.js';
import { hookArrived } from '../../src/checks/hook.js';
import { loginFormShown, oneAccountOffered, postMessageReceived, redirectedIn } from '../../src/checks/page.js';

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
  it('validates a value a step read as a body, and fails a body that is not JSON', () => {
    const judge = valueMatchesSchema('v', { type: 'object', required: ['a'] });
    expect(judge({ a: 1 }).verdict).toBe('passed');
    expect(judge({ b: 1 }).detail).toContain("must have required property 'a'");
    expect(matchesSchema('s', { type: 'object' })(res(200, 'not json')).verdict).toBe('failed');
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

describe('field checks', () => {
  it('judge a field of the body by its expectation, naming path, expectation and observation', () => {
    const body = res(200, { scope_id: 'abc', user: { phone: '+1', email: 'e@x' }, n: 3 });
    expect(verdict(field('scope_id', isNonEmptyString)(body))).toBe('passed');
    const f = field('user.name', isString)(body);
    expect(f).toMatchObject({ check: 'user.name', verdict: 'failed' });
    expect(f.detail).toBe('expected user.name to be a string, observed nothing');
    expect(verdict(field('n', isPositiveInteger)(body))).toBe('passed');
    expect(verdict(field('n', equals(4))(body))).toBe('failed');
    expect(verdict(field('n', oneOf(1, 3))(body))).toBe('passed');
    expect(verdict(field('missing', absent)(res(200, 'not json')))).toBe('passed');
  });
  it('judge several fields as one finding that lists every problem', () => {
    const f = fields('given', { 'user.phone': equals('+1'), 'user.email': absent, 'user.avatar': absentOrEmpty })(res(200, { user: { phone: '+1', email: 'e@x' } }));
    expect(f.verdict).toBe('failed');
    expect(f.detail).toContain('user.email "e@x" is not absent');
    expect(f.detail).not.toContain('user.phone "+1" is not');
    expect(verdict(valueFields('v', { a: isTrue })({ a: true }))).toBe('passed');
  });
  it('read values without casts, and show long strings only by their start', () => {
    const body = res(200, { _embedded: { leads: [{ id: 1 }] }, token: 'x'.repeat(40) });
    expect(arrayAt(body, '_embedded.leads')).toHaveLength(1);
    expect(jsonAt(body, '_embedded.leads.0.id')).toBe(1);
    expect(stringAt(body, '_embedded')).toBeUndefined();
    expect(field('token', equals('y'))(body).detail).toContain('"xxxx…"');
  });
  it('tell values apart', () => {
    expect(verdict(distinct('two', 'ids')(['a', 'b']))).toBe('passed');
    expect(verdict(distinct('two', 'ids')(['a', 'a']))).toBe('failed');
    expect(verdict(distinct('two', 'ids')(['a']))).toBe('informational');
    expect(verdict(valueField('refresh_token', absent)({ refresh_token: 'r' }))).toBe('failed');
    expect(verdict(field('t', differentFrom('old', 'the old one'))(res(200, { t: 'old' })))).toBe('failed');
  });
});

describe('status sets, refusals and observations', () => {
  it('statusIn passes only the listed codes, clientError any 4xx, and both fail a 5xx', () => {
    expect(verdict(statusIn(200, 204)(res(204)))).toBe('passed');
    expect(verdict(statusIn(200)(res(201)))).toBe('failed');
    expect(statusIn(200)(res(503)).detail).toContain('server error');
    expect(verdict(clientError()(res(409)))).toBe('passed');
    expect(verdict(clientError()(res(200)))).toBe('failed');
    expect(verdict(clientError()(res(500)))).toBe('failed');
  });
  it('observedStatus reports without judging', () => {
    const f = observedStatus('alias', { json200: 'with a token pair' })(res(200, { a: 1 }));
    expect(f).toEqual({ check: 'alias', verdict: 'informational', detail: 'answered 200 with a token pair' });
    expect(observedStatus('alias', { json200: 'with a token pair' })(res(400, { a: 1 })).detail).toBe('answered 400');
  });
  it('noSecretEcho also counts the fields of the request the answer came from', () => {
    const answered = { ...res(400, { detail: 'bad code code-0123456789' }), request: { method: 'POST', url: 'http://h', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'code-0123456789' }) } };
    // A code the client sent, echoed, is recorded (K23); a secret the client holds, echoed, fails.
    expect(verdict(noSecretEcho([], { requestFields: ['code'] })(answered))).toBe('informational');
    expect(verdict(noSecretEcho([])(answered))).toBe('passed');
    expect(verdict(noSecretEcho(['code-0123456789'], { requestFields: ['code'] })(answered))).toBe('failed');
    const form = { ...answered, request: { ...answered.request, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'code=code-0123456789' } };
    expect(verdict(noSecretEcho([], { requestFields: ['code'] })(form))).toBe('informational');
    expect(verdict(noSecretEcho([], { recorded: ['code-0123456789'] })(answered))).toBe('informational');
  });
});

describe('labelled judges', () => {
  it('prefix the check name and leave the verdict', () => {
    const [f] = labelled('old secret', [status(400)]).map((j) => j(res(200)));
    expect(f).toMatchObject({ check: 'old secret: status 400', verdict: 'failed' });
  });
});

describe('history, hook and page checks', () => {
  it('historyHolds wants each own message once and none of the other account', () => {
    const items = [{ message: { client_id: 'a' } }, { message: { client_id: 'b' } }];
    expect(verdict(historyHolds('A', { once: ['a'], none: ['c'] })(items))).toBe('passed');
    expect(verdict(historyHolds('A', { once: ['a'], none: ['b'] })(items))).toBe('failed');
    expect(verdict(historyHolds('A', { once: ['a'], none: [] })([...items, items[0]!]))).toBe('failed');
  });
  it('hookArrived fails when no hook came', () => {
    expect(verdict(hookArrived({ hook: undefined }))).toBe('failed');
    expect(verdict(hookArrived({ hook: { method: 'GET', path: '/h', query: new URLSearchParams(), receivedAt: 0 } }))).toBe('passed');
  });
  it('page checks judge the views of the page', () => {
    const hit = { window: 'popup' as const, params: new URLSearchParams('code=c') };
    expect(verdict(redirectedIn('main', 'the main window')({ hit }))).toBe('failed');
    expect(verdict(redirectedIn('popup', 'the popup')({ hit }))).toBe('passed');
    expect(verdict(redirectedIn('popup', 'the popup')({}))).toBe('failed');
    expect(verdict(postMessageReceived({ messages: [{ href: 'https://r.example/cb?code=abc' }] }))).toBe('passed');
    expect(verdict(postMessageReceived({ messages: [{ href: 'https://r.example/cb?error=x' }] }))).toBe('informational');
    expect(verdict(oneAccountOffered({ choices: 2, showsAccount: true }))).toBe('failed');
    expect(verdict(oneAccountOffered({ choices: 1, showsAccount: true }))).toBe('passed');
    expect(verdict(oneAccountOffered({ choices: 0, showsAccount: true }))).toBe('passed');
    expect(verdict(oneAccountOffered({ choices: 0, showsAccount: false }))).toBe('failed');
    expect(verdict(loginFormShown({ loginForm: false, allowButtons: 0 }))).toBe('failed');
  });
});
