/**
 * What public client libraries read beyond the spec (docs/field-notes.md, docs/emulator.md): PHP query semantics, the
 * exact problem+json type, HAL page links and record links, the `Date` header on the emulator clock, and the hosts a
 * token and a redirect name. Real HTTP against an ephemeral-port instance.
 */
import { decodeJwt } from 'jose';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './helpers.js';

let h: Harness;
let token: string;
let leads: Array<{ id: number; pipeline_id: number; responsible_user_id: number }>;
beforeAll(async () => { h = await Harness.start({ seed: 7 }); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await h.reset();
  token = (await h.tokens()).access_token;
  leads = (await h.request('GET', '/_control/lists/leads')).json.records;
});

const auth = () => ({ authorization: `Bearer ${token}` });
const get = (path: string, headers: Record<string, string> = {}) => h.request('GET', path, { headers: { ...auth(), ...headers } });
const ids = (r: { json: any }, name = 'leads'): number[] => (r.json?._embedded?.[name] ?? []).map((x: any) => x.id);

/** undici's request sends a Host header of our choosing (fetch forbids it). */
async function getVia(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; json: any }> {
  const res = await request(`${h.url}${path}`, { headers });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

describe('query string, as PHP reads it', () => {
  it('keeps the last value of a repeated key: a filter repeated on the next page still filters', async () => {
    const pipeline = leads[0]!.pipeline_id;
    const want = leads.filter((l) => l.pipeline_id === pipeline).map((l) => l.id).sort((a, b) => a - b).slice(0, 250);
    for (const q of [
      `filter[pipeline_id][0]=${pipeline}&filter[pipeline_id][0]=${pipeline}`,
      `filter%5Bpipeline_id%5D%5B0%5D=${pipeline}&limit=250&filter%5Bpipeline_id%5D%5B0%5D=${pipeline}`,
      `filter[pipeline_id][0]=999999&filter[pipeline_id][0]=${pipeline}`,
    ]) {
      const r = await get(`/api/v4/leads?${q}&limit=250`);
      expect(r.status, q).toBe(200);
      expect(ids(r), q).toEqual(want);
    }
    const limited = await get('/api/v4/leads?limit=7&limit=3');
    expect(ids(limited)).toHaveLength(3);
  });

  it('still appends every value of a [] key, raw or percent-encoded', async () => {
    const want = [leads[1]!.id, leads[4]!.id, leads[8]!.id];
    for (const b of ['[]', '%5B%5D']) {
      const q = want.map((id) => `filter[id]${b}=${id}`).join('&');
      expect(ids(await get(`/api/v4/leads?${q}`)), q).toEqual(want);
    }
  });
});

describe('problem types', () => {
  const PROBLEM = 'application/problem+json';

  it('answers account API errors with exactly application/problem+json', async () => {
    const cases: Array<[string, Record<string, string>, number]> = [
      ['/api/v4/account', { authorization: '' }, 401],
      ['/api/v4/leads?filter[id][from]=1', {}, 400],
      ['/api/v4/leads/1', {}, 404],
      ['/api/v4/no-such-entity', {}, 404],
    ];
    for (const [path, headers, status] of cases) {
      const r = await get(path, headers);
      expect(r.status, path).toBe(status);
      expect(r.contentType, path).toBe(PROBLEM);
      expect(r.json, path).toMatchObject({ status, title: expect.any(String), type: expect.any(String), detail: expect.any(String) });
    }
    const wrongMethod = await h.request('DELETE', '/api/v4/leads', { headers: auth() });
    expect([wrongMethod.status, wrongMethod.contentType, wrongMethod.headers.get('allow')]).toEqual([405, PROBLEM, 'GET, POST, PATCH, HEAD']);
  });

  it('keeps application/json for token errors (§4.1: "also on error"), the chat interface and the control API', async () => {
    const tokenError = await h.exchange({ grant_type: 'authorization_code' });
    expect([tokenError.status, tokenError.contentType]).toEqual([400, 'application/json; charset=utf-8']);
    const chat = await h.chat('POST', `/${h.env.CHANNEL_ID}/connect`, { account_id: h.env.CHAT_ACCOUNT_ID }, { secret: 'not-the-channel-secret' });
    expect([chat.status, chat.contentType]).toEqual([403, 'application/json; charset=utf-8']);
    const control = await h.postJson('/_control/clock', { advance_seconds: -1 });
    expect([control.status, control.contentType]).toEqual([400, 'application/json; charset=utf-8']);
  });
});

describe('list links and record links', () => {
  it('links self, next, first and prev, keeping every other parameter', async () => {
    const counts = new Map<number, number>();
    for (const l of leads) counts.set(l.responsible_user_id, (counts.get(l.responsible_user_id) ?? 0) + 1);
    const [user, count] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    expect(count).toBeGreaterThan(4);
    const base = `${h.url}/api/v4/leads`;
    const q = `filter[responsible_user_id]=${user}&limit=2`;
    const first = await get(`/api/v4/leads?${q}`);
    expect(first.json._links).toEqual({ self: { href: `${base}?${q}` }, next: { href: `${base}?${q}&page=2` } });
    const second = await get(`/api/v4/leads?page=2&${q}`);
    expect(second.json._page).toBe(2);
    expect(second.json._links).toEqual({
      self: { href: `${base}?page=2&${q}` },
      next: { href: `${base}?${q}&page=3` },
      first: { href: `${base}?${q}&page=1` },
      prev: { href: `${base}?${q}&page=1` },
    });
    const prev = await get(new URL(second.json._links.prev.href).pathname + new URL(second.json._links.prev.href).search);
    expect(ids(prev)).toEqual(ids(first));
  });

  it('ends the links on the last page: prev and first, no next', async () => {
    const total = leads.length;
    const last = await get(`/api/v4/leads?limit=100&page=${Math.ceil(total / 100)}`);
    expect(last.status).toBe(200);
    expect(Object.keys(last.json._links).sort()).toEqual(['first', 'prev', 'self']);
  });

  it('serves each record at its _links.self, and 404 for an id that names no record', async () => {
    for (const list of ['leads', 'contacts', 'companies', 'customers']) {
      const page = await get(`/api/v4/${list}?limit=1`);
      const record = page.json._embedded[list][0];
      const href = new URL(record._links.self.href);
      const one = await get(href.pathname);
      expect(one.status, list).toBe(200);
      expect(one.contentType).toMatch(/^application\/hal\+json/);
      expect(one.json).toEqual(record);
      for (const bad of ['1', 'abc', '99999999999999999999']) expect((await get(`/api/v4/${list}/${bad}`)).status, `${list}/${bad}`).toBe(404);
    }
    expect((await h.request('GET', `/api/v4/leads/${leads[0]!.id}`)).status).toBe(401);
  });

  it('builds links from the host called, and from X-Forwarded-Proto/-Host behind a TLS proxy', async () => {
    const direct = await getVia('/api/v4/leads?limit=1&page=2', { ...auth(), host: 'crm.example:8080' });
    expect(direct.json._links.first.href).toBe('http://crm.example:8080/api/v4/leads?limit=1&page=1');
    expect(direct.json._embedded.leads[0]._links.self.href).toMatch(/^http:\/\/crm\.example:8080\/api\/v4\/leads\/\d+$/);
    const proxied = await getVia('/api/v4/leads?limit=1', { ...auth(), host: '127.0.0.1:9', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'crm.example' });
    expect(proxied.json._links.next.href).toBe('https://crm.example/api/v4/leads?limit=1&page=2');
    const account = await getVia('/api/v4/account', { ...auth(), 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'a.example:8443, b.example' });
    expect(account.json._links.self.href).toBe('https://a.example:8443/api/v4/account');
    const hostile = await getVia('/api/v4/account', { ...auth(), 'x-forwarded-host': 'evil.example/path?x=', 'x-forwarded-proto': 'javascript' });
    expect(hostile.json._links.self.href).toBe(`${h.url}/api/v4/account`);
  });
});

describe('the Date header', () => {
  const dateOf = (r: { headers: Headers }) => Date.parse(r.headers.get('date') ?? '');

  it('follows the emulator clock on every kind of answer', async () => {
    const before = Date.now();
    const advanced = await h.advance(10 * 86_400);
    expect(advanced.status).toBe(200);
    const emulatorNow = advanced.json.now * 1000;
    const answers = [advanced, await h.account(undefined), await get('/api/v4/leads?limit=1'), await h.request('GET', '/nowhere')];
    // Ten days ahead of the real time, by no more than the real time these requests took (however long, under load).
    const took = Date.now() - before;
    for (const r of answers) {
      expect(dateOf(r)).toBeGreaterThanOrEqual(emulatorNow - 1_000);
      expect(dateOf(r)).toBeLessThanOrEqual(emulatorNow + took + 1_000);
      expect(dateOf(r) - before).toBeGreaterThan(10 * 86_400_000 - 5_000);
    }
    const t = await h.exchange(h.codeRequest(await h.code()));
    expect(Math.abs(dateOf(t) - t.json.server_time * 1000)).toBeLessThanOrEqual(1_000);
    // A client computing the expiry as Date + expires_in lands on the token's exp.
    expect(Math.abs(dateOf(t) / 1000 + t.json.expires_in - (decodeJwt(t.json.access_token).exp ?? 0))).toBeLessThanOrEqual(1);
  });
});

describe('hosts named in tokens and redirects', () => {
  it('names the host the client called in api_domain and base_domain, also behind a proxy and on refresh', async () => {
    const send = async (body: Record<string, unknown>, headers: Record<string, string>) => {
      const res = await request(`${h.url}/oauth2/access_token`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
      return (await res.body.json()) as any;
    };
    const pair = await send(h.codeRequest(await h.code()), { host: 'crm.example:8443' });
    expect(decodeJwt(pair.access_token)).toMatchObject({ api_domain: 'crm.example:8443', base_domain: 'crm.example:8443' });
    const refreshed = await send(h.refreshRequest(pair.refresh_token), { host: '127.0.0.1:1', 'x-forwarded-host': 'edge.example', 'x-forwarded-proto': 'https' });
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ api_domain: 'edge.example', base_domain: 'edge.example' });
    const plain = await h.tokens();
    expect(decodeJwt(plain.access_token).api_domain).toBe(new URL(h.url).host);
  });

  it('names the host called in the consent redirect (referer) and in long-lived tokens', async () => {
    const consent = await request(`${h.url}/_control/consent`, {
      method: 'POST', headers: { 'content-type': 'application/json', host: 'crm.example' },
      body: JSON.stringify({ client_id: h.env.CLIENT_ID, decision: 'allow' }),
    });
    const location = new URL(((await consent.body.json()) as any).location);
    expect(location.searchParams.get('referer')).toMatch(/^crm\.example\/_accounts\/emu[a-z0-9]+$/);
    const expiresAt = Math.floor(Date.now() / 1000) + 7 * 86_400;
    const created = await request(`${h.url}/_control/long-lived-tokens`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-host': 'edge.example' },
      body: JSON.stringify({ client_id: h.env.CLIENT_ID, expires_at: expiresAt }),
    });
    const body = (await created.body.json()) as any;
    expect(created.statusCode).toBe(201);
    expect(decodeJwt(body.long_lived_token).api_domain).toBe('edge.example');
  });
});
