/**
 * The account API as a sandbox for real clients (issue 23): the account answer with every field a client reads and
 * every `with=` value, `order[...]` on the lists, writes to the four lists in the live service's answer shapes, the
 * account-subdomain lookup by refresh token, and the MD5 message of a GET with a body.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_WITH } from '../../src/protocol/oauth.js';
import { ORDER_FIELDS } from '../../src/emulator/lists/routes.js';
import { EMPTY_MD5, signChatRequest } from '../../src/protocol/chat-signature.js';
import { Harness, type Reply } from './helpers.js';

let h: Harness;
let token: string;
let refresh: string;
beforeAll(async () => { h = await Harness.start({ seed: 23 }); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await h.reset();
  ({ access_token: token, refresh_token: refresh } = await h.tokens());
});

const auth = () => ({ authorization: `Bearer ${token}` });
const get = (path: string) => h.request('GET', path, { headers: auth() });
const send = (method: string, path: string, body: unknown) =>
  h.request(method, path, { body: JSON.stringify(body), headers: { ...auth(), 'content-type': 'application/json' } });
const ids = (r: Reply, list = 'leads'): number[] => (r.json?._embedded?.[list] ?? []).map((x: { id: number }) => x.id);

/** The fields the official PHP client's AccountModel::fromArray reads without a check, with their JSON types. */
const BASE_FIELDS: Record<string, string> = {
  id: 'number', name: 'string', subdomain: 'string', created_at: 'number', created_by: 'number', updated_at: 'number', updated_by: 'number',
  current_user_id: 'number', country: 'string', currency: 'string', is_unsorted_on: 'boolean', mobile_feature_version: 'number',
  customers_mode: 'string', is_loss_reason_enabled: 'boolean', is_helpbot_enabled: 'boolean', is_technical_account: 'boolean',
  contact_name_display_order: 'number',
};

describe('GET /api/v4/account', () => {
  it('answers every field a client reads without a with=', async () => {
    const r = await get('/api/v4/account');
    expect(r.status).toBe(200);
    for (const [field, type] of Object.entries(BASE_FIELDS)) expect(typeof r.json[field], field).toBe(type);
    expect(r.json).not.toHaveProperty('_embedded');
  });

  it('serves each with= value the public service names, at the top level or under _embedded', async () => {
    const r = await get(`/api/v4/account?with=${ACCOUNT_WITH.join(',')}`);
    expect(r.status).toBe(200);
    for (const [field, type] of Object.entries(BASE_FIELDS)) expect(typeof r.json[field], field).toBe(type);
    expect(r.json).toMatchObject({
      amojo_id: h.env.CHAT_ACCOUNT_ID, version: expect.any(Number), drive_url: expect.stringMatching(/^http/), is_api_filter_enabled: true,
      entity_names: { leads: expect.any(Object) },
      _embedded: {
        amojo_rights: { can_direct: expect.any(Boolean), can_create_groups: expect.any(Boolean) },
        users_groups: [{ id: expect.any(Number), name: expect.any(String) }],
        task_types: expect.arrayContaining([{ id: expect.any(Number), name: expect.any(String), color: null, icon_id: null, code: expect.any(String) }]),
        datetime_settings: {
          date_pattern: expect.any(String), short_date_pattern: expect.any(String), short_time_pattern: expect.any(String),
          date_format: expect.any(String), time_format: expect.any(String), timezone: expect.any(String), timezone_offset: expect.any(String),
        },
      },
    });
    for (const w of ACCOUNT_WITH) {
      const one = await get(`/api/v4/account?with=${w}`);
      const where = w in one.json ? one.json : one.json._embedded ?? {};
      expect(where, w).toHaveProperty(w);
    }
  });
});

describe('order[...] on the lists', () => {
  it('sorts by every field the list takes, both ways, with filters and pages', async () => {
    const records: Array<{ id: number; created_at: number; updated_at: number; pipeline_id: number }> = (await h.request('GET', '/_control/lists/leads')).json.records;
    for (const field of ORDER_FIELDS.leads) {
      for (const dir of ['asc', 'desc'] as const) {
        const want = [...records].sort((a, b) => (a[field] - b[field]) * (dir === 'asc' ? 1 : -1) || a.id - b.id).map((x) => x.id);
        const first = await get(`/api/v4/leads?order[${field}]=${dir}&limit=40`);
        expect(ids(first), `${field} ${dir}`).toEqual(want.slice(0, 40));
        const third = await get(`/api/v4/leads?order%5B${field}%5D=${dir}&limit=40&page=3`);
        expect(ids(third), `${field} ${dir} page 3`).toEqual(want.slice(80, 120));
        expect(third.json._links.next.href).toContain(`order%5B${field}%5D=${dir}`);
      }
    }
    const pipeline = records[0]!.pipeline_id;
    const filtered = await get(`/api/v4/leads?filter[pipeline_id]=${pipeline}&order[id]=desc&limit=250`);
    expect(ids(filtered)).toEqual(records.filter((x) => x.pipeline_id === pipeline).map((x) => x.id).sort((a, b) => b - a));
    for (const list of ['contacts', 'companies', 'customers']) {
      const r = await get(`/api/v4/${list}?order[id]=desc&limit=5`);
      const got = ids(r, list);
      expect(got, list).toEqual([...got].sort((a, b) => b - a));
    }
  });

  it('refuses an order it cannot apply with a 400 naming it', async () => {
    for (const [query, named] of [
      ['order[name]=asc', 'order[name]'], ['order[id]=up', 'order[id]'], ['order=created_at', '`order`'],
      ['order[id]=asc&order[created_at]=desc', '`order`'],
    ] as const) {
      const r = await get(`/api/v4/leads?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.contentType).toBe('application/problem+json');
      expect(r.json.detail, query).toContain(named);
    }
    const r = await get('/api/v4/contacts?order[created_at]=asc');
    expect([r.status, r.json.detail]).toEqual([400, expect.stringContaining('order[created_at]')]);
  });
});

describe('writes to the lists', () => {
  it('creates leads from an array and answers ids with request_id, in the live shape', async () => {
    const r = await send('POST', '/api/v4/leads', [{ name: 'First', price: 1500 }, { request_id: 'mine', price: 10 }]);
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^application\/hal\+json/);
    const made = r.json._embedded.leads as Array<{ id: number; request_id: string; _links: { self: { href: string } } }>;
    expect(made.map((m) => m.request_id)).toEqual(['0', 'mine']);
    expect(r.json._links.self.href).toBe(`${h.url}/api/v4/leads`);
    const one = await get(`/api/v4/leads/${made[0]!.id}`);
    expect(one.json).toMatchObject({ id: made[0]!.id, name: 'First', price: 1500, responsible_user_id: Number(h.env.MANAGER_USER_ID), is_deleted: false });
    expect(made[0]!._links.self.href).toBe(`${h.url}/api/v4/leads/${made[0]!.id}`);
    expect((await get(`/api/v4/leads/${made[1]!.id}`)).json.name).toBe(`Lead #${made[1]!.id}`);
    // The new records are filterable and listed like any other.
    const byName = await get('/api/v4/leads?filter[name]=First');
    expect(ids(byName)).toEqual([made[0]!.id]);
  });

  it('updates one record by id and several in a batch; answers id and updated_at', async () => {
    const [lead] = (await send('POST', '/api/v4/leads', [{ name: 'To change' }])).json._embedded.leads;
    await h.advance(60);
    const one = await send('PATCH', `/api/v4/leads/${lead.id}`, { price: 777, name: 'Changed' });
    expect(one.status).toBe(200);
    expect(one.json).toEqual({ id: lead.id, updated_at: expect.any(Number), _links: { self: { href: `${h.url}/api/v4/leads/${lead.id}` } } });
    const stored = (await get(`/api/v4/leads/${lead.id}`)).json;
    expect(stored).toMatchObject({ name: 'Changed', price: 777, updated_at: one.json.updated_at });
    expect(stored.updated_at).toBeGreaterThan(stored.created_at);

    const contacts = (await send('POST', '/api/v4/contacts', [{ name: 'A' }, { name: 'B' }])).json._embedded.contacts as Array<{ id: number }>;
    const batch = await send('PATCH', '/api/v4/contacts', contacts.map((c, n) => ({ id: c.id, name: `Renamed ${n}` })));
    expect(batch.status).toBe(200);
    expect(batch.json._embedded.contacts.map((c: { id: number }) => c.id)).toEqual(contacts.map((c) => c.id));
    expect((await get(`/api/v4/contacts/${contacts[1]!.id}`)).json.name).toBe('Renamed 1');
  });

  it('serves create and update on all four lists', async () => {
    for (const list of ['leads', 'contacts', 'companies', 'customers']) {
      const made = await send('POST', `/api/v4/${list}`, [{ name: `New ${list}` }]);
      expect(made.status, list).toBe(200);
      const id = made.json._embedded[list][0].id as number;
      const changed = await send('PATCH', `/api/v4/${list}/${id}`, { name: `Changed ${list}` });
      expect(changed.status, list).toBe(200);
      expect((await get(`/api/v4/${list}/${id}`)).json.name).toBe(`Changed ${list}`);
    }
  });

  it('refuses invalid writes with 400 validation-errors, and changes nothing', async () => {
    const before = (await h.request('GET', '/_control/lists')).json.counts;
    const bad = await send('POST', '/api/v4/leads', [{ name: 'fine' }, { price: 'cheap', status_id: 1 }]);
    expect(bad.status).toBe(400);
    expect(bad.contentType).toBe('application/problem+json');
    expect(bad.json['validation-errors']).toEqual([{ request_id: '1', errors: expect.arrayContaining([expect.objectContaining({ path: 'price' }), expect.objectContaining({ path: 'status_id' })]) }]);
    for (const body of [{}, [], 'x', [1]]) expect((await send('POST', '/api/v4/leads', body)).status, JSON.stringify(body)).toBe(400);
    expect((await send('PATCH', '/api/v4/leads/1', { name: 'x' })).status).toBe(404);
    expect((await send('PATCH', '/api/v4/leads', [{ id: 1, name: 'x' }])).status).toBe(400);
    expect((await h.request('POST', '/api/v4/leads', { body: '[{"name":"x"}]', headers: { 'content-type': 'application/json' } })).status).toBe(401);
    expect((await h.request('GET', '/_control/lists')).json.counts).toEqual(before);
  });

  it('is undone by a control reset, a change as well as a new record', async () => {
    const seeded = (await h.request('GET', '/_control/lists/companies')).json.records[0] as { id: number; name: string };
    await send('POST', '/api/v4/companies', [{ name: 'Gone after reset' }]);
    expect((await send('PATCH', `/api/v4/companies/${seeded.id}`, { name: 'Renamed before reset' })).status).toBe(200);
    await h.reset();
    ({ access_token: token } = await h.tokens());
    expect((await get('/api/v4/companies?filter[name]=Gone after reset')).status).toBe(204);
    expect((await get(`/api/v4/companies/${seeded.id}`)).json.name).toBe(seeded.name);
  });
});

describe('GET /oauth2/account/current/subdomain', () => {
  it('names the account of a usable refresh token, without using it up', async () => {
    const r = await h.request('GET', '/oauth2/account/current/subdomain', { headers: { 'x-refresh-token': refresh } });
    expect(r.status).toBe(200);
    const control = (await h.request('GET', '/_control')).json;
    expect(r.json).toEqual({ id: control.account.id, subdomain: control.account.subdomain, domain: new URL(h.url).host, top_level_domain: expect.any(String) });
    expect((await h.exchange(h.refreshRequest(refresh))).status).toBe(200);
    // Exchanged now: it names no account any more.
    expect((await h.request('GET', '/oauth2/account/current/subdomain', { headers: { 'x-refresh-token': refresh } })).status).toBe(401);
    expect((await h.request('GET', '/oauth2/account/current/subdomain')).status).toBe(400);
    expect((await h.request('GET', '/oauth2/account/current/subdomain', { headers: { 'x-refresh-token': 'nothing' } })).status).toBe(401);
  });
});

describe('the MD5 of a chat GET with a body', () => {
  it('says that a GET signs the MD5 of the empty string', async () => {
    const scope = await h.connectChannel();
    const url = `/v2/origin/custom/${scope}/chats/no-such-chat/history`;
    const body = '{"a":1}';
    const bodyMd5 = createHash('md5').update(body).digest('hex');
    const signed = signChatRequest({ method: 'GET', url, body, secret: h.env.CHANNEL_SECRET! });
    expect(signed['content-md5']).toBe(bodyMd5);
    // undici refuses a body on GET through fetch; a raw request sends it.
    const { request } = await import('undici');
    const res = await request(`${h.url}${url}`, { method: 'GET', body, headers: signed });
    const answer = JSON.parse(await res.body.text());
    expect(res.statusCode).toBe(403);
    expect(JSON.stringify(answer)).toContain(EMPTY_MD5);
    expect(JSON.stringify(answer)).not.toContain('does not match the body');
    const emptySigned = signChatRequest({ method: 'GET', url, secret: h.env.CHANNEL_SECRET! });
    const ok = await request(`${h.url}${url}`, { method: 'GET', body, headers: emptySigned });
    await ok.body.dump();
    expect(ok.statusCode).toBe(204);
  });
});

describe('what the emulator does not serve (docs/emulator.md)', () => {
  it('answers as the table says', async () => {
    const drive = (await get('/api/v4/account?with=drive_url')).json.drive_url as string;
    const cases: Array<[string, string, number, string?]> = [
      // Pipelines and custom fields are served read-only (test/emulator/catalog.test.ts).
      ['POST', '/api/v4/leads/pipelines', 405, 'GET, HEAD'], ['PATCH', '/api/v4/contacts/custom_fields', 405, 'GET, HEAD'], ['GET', '/api/v4/tasks', 404],
      ['GET', `/api/v4/leads/20000001/notes`, 404], ['POST', '/api/v4/leads/complex', 405, 'GET, PATCH, HEAD'],
      ['DELETE', '/api/v4/leads', 405, 'GET, POST, PATCH, HEAD'], ['PUT', '/api/v4/contacts', 405, 'GET, POST, PATCH, HEAD'],
      ['POST', '/api/v4/account', 405, 'GET, HEAD'], ['GET', new URL(drive).pathname, 404], ['GET', '/api/v2/account', 404],
      ['GET', '/private/api/v2/json/accounts/current', 404], ['GET', '/oauth2/authorize', 404],
    ];
    for (const [method, path, status, allow] of cases) {
      const r = await h.request(method, path, { headers: auth(), ...(method === 'GET' || method === 'DELETE' ? {} : { body: '[{}]', headers: { ...auth(), 'content-type': 'application/json' } }) });
      expect(r.status, `${method} ${path}`).toBe(status);
      if (allow) expect(r.headers.get('allow'), `${method} ${path}`).toBe(allow);
    }
    const withList = await get('/api/v4/leads?with=contacts,loss_reason&limit=1');
    expect(withList.status).toBe(200);
  });
});

