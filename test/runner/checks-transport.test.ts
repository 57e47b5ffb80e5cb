import { describe, expect, it } from 'vitest';
import { isLoopbackUrl, noPlainHttpLinks, servedOverTls } from '../../src/checks/transport.js';
import { burstObserved, errorMemberObserved, mediaTypeAndKeysObserved } from '../../src/checks/records.js';
import { jsonBodyOfAnyJsonType } from '../../src/checks/media.js';
import { linksOf, tlsFailureOf } from '../../src/steps/transport.js';
import { TransportError } from '../../src/errors.js';
import type { HttpResponse } from '../../src/model/http.js';

const res = (s: number, body: unknown = '', type = 'application/json', headers: Record<string, string> = {}): HttpResponse => ({
  status: s,
  headers: { ...(type ? { 'content-type': type } : {}), ...headers },
  text: typeof body === 'string' ? body : JSON.stringify(body),
  durationMs: 1,
});

describe('servedOverTls', () => {
  it('passes https, fails plain http off loopback and a certificate failure, and exempts loopback as informational', () => {
    expect(servedOverTls({ endpoint: 'api', url: 'https://a.example.com/x', links: [] }).verdict).toBe('passed');
    expect(servedOverTls({ endpoint: 'api', url: 'http://a.example.com/x', links: [] }).verdict).toBe('failed');
    expect(servedOverTls({ endpoint: 'api', url: 'https://a.example.com/x', tlsError: 'CERT_HAS_EXPIRED', links: [] }).verdict).toBe('failed');
    expect(servedOverTls({ endpoint: 'api', url: 'http://127.0.0.1:8080/x', links: [] }).verdict).toBe('informational');
    expect(servedOverTls({ endpoint: 'api', url: 'http://[::1]:8080/x', links: [] }).verdict).toBe('informational');
  });
  it('tells loopback hosts from others', () => {
    expect(isLoopbackUrl('http://localhost:1/')).toBe(true);
    expect(isLoopbackUrl('http://127.8.0.1/')).toBe(true);
    expect(isLoopbackUrl('http://127.0.0.1.example.com/')).toBe(false);
    expect(isLoopbackUrl('not a url')).toBe(false);
  });
});

describe('noPlainHttpLinks', () => {
  it('fails a plain-http link to another host, passes https and loopback links', () => {
    expect(noPlainHttpLinks({ endpoint: 'api', url: 'https://a.example.com', links: ['http://a.example.com/api/v4/account'] }).verdict).toBe('failed');
    expect(noPlainHttpLinks({ endpoint: 'api', url: 'https://a.example.com', links: ['https://a.example.com/api/v4/account', 'http://127.0.0.1:1/x'] }).verdict).toBe('passed');
  });
  it('reads Location and every HAL href', () => {
    const r = res(200, { _links: { self: { href: 'http://x.example/a' } }, _embedded: { leads: [{ _links: { self: { href: 'https://y.example/b' } } }] } }, 'application/hal+json', { location: 'https://z.example/c' });
    expect(linksOf(r).sort()).toEqual(['http://x.example/a', 'https://y.example/b', 'https://z.example/c']);
  });
  it('keeps only certificate and handshake failures as TLS failures', () => {
    const cert = new TransportError('https://a', 'failed', { cause: Object.assign(new Error('cert'), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }) });
    const refused = new TransportError('https://a', 'failed', { cause: Object.assign(new Error('no'), { code: 'ECONNREFUSED' }) });
    expect(tlsFailureOf(cert)).toMatch(/UNABLE_TO_VERIFY/);
    expect(tlsFailureOf(refused)).toBeUndefined();
  });
});

describe('records', () => {
  it('records the error member, the media type and keys, and a burst', () => {
    expect(errorMemberObserved(res(400, { error: 'invalid_grant', title: 'Bad Request' })).detail).toBe('400 application/json, error=invalid_grant, title=Bad Request');
    expect(mediaTypeAndKeysObserved(res(200, { b: 1, a: 2 }, 'application/hal+json')).detail).toBe('200 application/hal+json; keys: a, b');
    const b = burstObserved({ sent: 3, elapsedMs: 100, ceilingRps: 5, answers: [res(200), res(429, '', '', { 'retry-after': '1' }), res(200)] });
    expect(b.verdict).toBe('informational');
    expect(b.detail).toMatch(/2×200, 1×429; first non-2xx 429, Retry-After 1; the kit's RATE_LIMIT_RPS=5/);
  });
});

describe('jsonBodyOfAnyJsonType', () => {
  it('passes any JSON media type and a 204, fails another type or a body that does not parse', () => {
    expect(jsonBodyOfAnyJsonType(res(200, { a: 1 }, 'application/hal+json; charset=utf-8')).verdict).toBe('passed');
    expect(jsonBodyOfAnyJsonType(res(204, '', '')).verdict).toBe('passed');
    expect(jsonBodyOfAnyJsonType(res(200, { a: 1 }, 'text/plain')).verdict).toBe('failed');
    expect(jsonBodyOfAnyJsonType(res(200, '{nope', 'application/json')).verdict).toBe('failed');
  });
});

describe('showsNoneOf', () => {
  it('passes 204 and a page without the ids, fails a page with one, is non_strict on a refusal', async () => {
    const { showsNoneOf, embeddedIds } = await import('../../src/checks/isolation.js');
    const check = showsNoneOf([7, 8], 'the other account');
    expect(check(res(204, '', '')).verdict).toBe('passed');
    expect(check(res(200, { _embedded: { leads: [{ id: 1 }, { id: 2 }] } }, 'application/hal+json')).verdict).toBe('passed');
    expect(check(res(200, { _embedded: { leads: [{ id: 1 }, { id: 8 }] } }, 'application/hal+json')).verdict).toBe('failed');
    expect(check(res(400, { title: 'Bad Request' })).verdict).toBe('non_strict');
    expect(embeddedIds({ _embedded: { contacts: [{ id: 3 }, { name: 'x' }] } })).toEqual([3]);
  });
});

describe('showsRecord', () => {
  it('passes a page holding the id, fails a 204 or a page without it', async () => {
    const { showsRecord } = await import('../../src/checks/isolation.js');
    const check = showsRecord(5, 'the record');
    expect(check(res(200, { _embedded: { leads: [{ id: 5 }] } }, 'application/hal+json')).verdict).toBe('passed');
    expect(check(res(204, '', '')).verdict).toBe('failed');
    expect(check(res(200, { _embedded: { leads: [{ id: 6 }] } }, 'application/hal+json')).verdict).toBe('failed');
  });
});
