import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Harness, type Reply } from './helpers.js';

let h: Harness;
beforeAll(async () => { h = await Harness.start(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => { await h.reset(); });

const TOKEN = '/oauth2/access_token';

function expectJson4xx(r: Reply): void {
  expect(r.status).toBeGreaterThanOrEqual(400);
  expect(r.status).toBeLessThan(500);
  expect(r.contentType).toMatch(/^application\/(problem\+)?json\b/);
  expect(r.json.status).toBe(r.status);
}

describe('malformed token requests', () => {
  it.each([
    ['broken JSON', '{"grant_type":', 'application/json'],
    ['a JSON array', '[1,2,3]', 'application/json'],
    ['a JSON string', '"authorization_code"', 'application/json'],
    ['JSON null', 'null', 'application/json'],
    ['a JSON number', '42', 'application/json'],
    ['an empty JSON body', '', 'application/json'],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 'application/json'],
    ['invalid UTF-8 in a form', new Uint8Array([0x63, 0x6f, 0x64, 0x65, 0x3d, 0xff, 0xfe]), 'application/x-www-form-urlencoded'],
    ['text/plain', 'grant_type=authorization_code', 'text/plain'],
    ['multipart', '--x\r\n\r\n--x--', 'multipart/form-data; boundary=x'],
    ['an invalid media type', '{}', 'nonsense'],
    ['deeply nested form keys', 'a[b][c][d][e][f][g][h]=1&client_id[]=x', 'application/x-www-form-urlencoded'],
    ['a form with prototype keys', '__proto__[x]=1&constructor[prototype][y]=2&grant_type=refresh_token', 'application/x-www-form-urlencoded'],
    ['a JSON __proto__ key', '{"__proto__":{"grant_type":"refresh_token"},"constructor":1}', 'application/json'],
  ])('answers %s with a JSON 400', async (_name, body, contentType) => {
    const r = await h.request('POST', TOKEN, { body, headers: { 'content-type': contentType } });
    expect(r.status).toBe(400);
    expect(r.contentType).toMatch(/^application\/json\b/);
    expect(r.json).toMatchObject({ title: 'Bad Request', status: 400 });
  });

  it('answers a POST without content type or body with 400', async () => {
    expect((await h.request('POST', TOKEN)).status).toBe(400);
    expect((await h.request('POST', TOKEN, { body: 'client_id=x' })).status).toBe(400);
  });

  it('answers a body over the size limit with a JSON 413', async () => {
    const r = await h.request('POST', TOKEN, { body: `{"a":"${'x'.repeat(1_100_000)}"}`, headers: { 'content-type': 'application/json' } });
    expectJson4xx(r);
    expect(r.status).toBe(413);
  });

  it('never answers 5xx for values of every JSON type in every field', async () => {
    const fields = ['grant_type', 'client_id', 'client_secret', 'code', 'refresh_token', 'redirect_uri'];
    const values = [null, 0, -1, 1.5, true, false, [], ['x'], {}, { a: 'b' }, '', 'x'.repeat(10_000), '\u0000'];
    const code = await h.code();
    for (const grant of ['authorization_code', 'refresh_token']) {
      for (const field of fields) {
        for (const value of values) {
          const r = await h.exchange({ ...h.codeRequest(code, { grant_type: grant }), [field]: value });
          expect(r.status, `${grant} ${field}=${JSON.stringify(value).slice(0, 20)}`).toBeLessThan(500);
          expect(r.contentType).toMatch(/^application\/json\b/);
        }
      }
    }
  });
});

describe('no secret in error bodies', () => {
  it('does not echo client_secret, code or refresh_token in any refusal', async () => {
    const t = await h.tokens();
    const code = await h.code();
    const fresh = await h.tokens();
    const cases: unknown[] = [
      h.codeRequest(code, { redirect_uri: 'https://evil.example/' }),
      h.codeRequest(code, { client_id: 'nope' }),
      h.codeRequest(code, { client_secret: `${h.env.CLIENT_SECRET}x` }),
      h.codeRequest(t.code),
      h.codeRequest(code, { grant_type: 'bogus' }),
      h.refreshRequest(t.refresh_token, { client_secret: 'wrong-secret-value' }),
      h.refreshRequest(fresh.refresh_token, { redirect_uri: 'https://evil.example/' }),
      h.refreshRequest(`${fresh.refresh_token}zz`),
    ];
    const secrets = [...h.emu.issuedSecrets(), `${h.env.CLIENT_SECRET}x`, 'wrong-secret-value', `${fresh.refresh_token}zz`];
    for (const body of cases) {
      const r = await h.exchange(body);
      expect(r.status).toBe(400);
      for (const s of secrets) expect(r.text).not.toContain(s);
    }
    const api = await h.account(`${fresh.access_token}x`);
    for (const s of secrets) expect(api.text).not.toContain(s);
  });
});

describe('routing', () => {
  it('answers unknown routes with a JSON 404 that does not echo the path', async () => {
    const r = await h.request('GET', '/nowhere/secret-looking-value');
    expect(r.status).toBe(404);
    expectJson4xx(r);
    expect(r.text).not.toContain('secret-looking-value');
    expectJson4xx(await h.request('POST', '/api/v4/leads', { body: '{', headers: { 'content-type': 'application/json' } }));
  });

  it('answers wrong methods on known paths with a JSON 405 and Allow', async () => {
    const r = await h.request('GET', TOKEN);
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expectJson4xx(r);
    const a = await h.request('DELETE', '/api/v4/account');
    expect(a.status).toBe(405);
    expect(a.headers.get('allow')).toBe('GET, HEAD');
    expectJson4xx(await h.request('PUT', '/_control/clock', { body: '{}', headers: { 'content-type': 'application/json' } }));
  });

  it('answers broken control bodies with a JSON 400', async () => {
    for (const path of ['/_control/clock', '/_control/consent', '/_control/faults']) {
      const r = await h.request('POST', path, { body: '{nope', headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(400);
      expectJson4xx(r);
    }
  });

  it('treats a malformed query string on the account API as a 401 first, never a 5xx', async () => {
    const r = await h.request('GET', '/api/v4/account?with[][]][=%ZZ&with=%E0%A4%A');
    expectJson4xx(r);
    const t = await h.tokens();
    const ok = await h.request('GET', '/api/v4/account?with=%ZZ&with[x]=1', { headers: { authorization: `Bearer ${t.access_token}` } });
    expect(ok.status).toBe(200);
  });
});
