/**
 * The list endpoints of the emulator (§4.2): query forms public clients send, the HAL answer, pagination links,
 * refusals, and the control API for the list data.
 */
import qs from 'qs';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from '../emulator/helpers.js';

let h: Harness;
let token: string;
let catalog: any;
let leads: any[];

beforeAll(async () => { h = await Harness.start({ seed: 42 }); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await h.reset();
  token = (await h.tokens()).access_token;
  catalog = (await h.request('GET', '/_control/lists')).json.catalog;
  leads = (await h.request('GET', '/_control/lists/leads')).json.records;
});

const list = (path: string, query: string) => h.request('GET', `/api/v4/${path}${query ? `?${query}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
const ids = (r: { json: any }, name = 'leads') => (r.json?._embedded?.[name] ?? []).map((x: any) => x.id).sort();

describe('list endpoints', () => {
  it('seeds a few hundred records per list, the same for the same emulator seed', async () => {
    const other = await Harness.start({ seed: 42 });
    try {
      const again = (await other.request('GET', '/_control/lists/leads')).json.records;
      expect(leads.length).toBe(300);
      expect(again).toEqual(leads);
    } finally { await other.close(); }
  });

  it('needs a bearer', async () => {
    const r = await h.request('GET', '/api/v4/leads');
    expect(r.status).toBe(401);
    expect(r.contentType).toMatch(/^application\/problem\+json/);
  });

  it('answers HAL with _page, _links built from the host called, _embedded records with their own links', async () => {
    const r = await list('leads', 'limit=2');
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^application\/hal\+json/);
    expect(r.json._page).toBe(1);
    expect(r.json._links.self.href).toBe(`${h.url}/api/v4/leads?limit=2`);
    expect(r.json._links.next.href).toBe(`${h.url}/api/v4/leads?limit=2&page=2`);
    expect(r.json._embedded.leads).toHaveLength(2);
    expect(r.json._embedded.leads[0]._links.self.href).toBe(`${h.url}/api/v4/leads/${r.json._embedded.leads[0].id}`);
    const viaHost = await request(`${h.url}/api/v4/leads?limit=1`, { headers: { authorization: `Bearer ${token}`, host: 'crm.example:8443' } });
    expect(((await viaHost.body.json()) as any)._links.next.href).toMatch(/^http:\/\/crm\.example:8443\/api\/v4\/leads\?limit=1&page=2$/);
  });

  it('lowers limit to 250 and refuses a bad page', async () => {
    expect((await list('contacts', 'limit=500')).json._embedded.contacts).toHaveLength(250);
    expect((await list('contacts', 'page=0')).status).toBe(400);
    expect((await list('contacts', 'limit=abc')).status).toBe(400);
  });

  it('answers 204 with an empty body when nothing matches', async () => {
    const r = await list('leads', 'filter[id]=1');
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
  });

  it('reads every bracket form public clients send alike', async () => {
    const want = [leads[0].id, leads[5].id, leads[9].id].sort();
    const forms = [
      'filter[id][0]=%a&filter[id][1]=%b&filter[id][2]=%c',
      'filter%5Bid%5D%5B0%5D=%a&filter%5Bid%5D%5B1%5D=%b&filter%5Bid%5D%5B2%5D=%c',
      'filter[id][]=%a&filter[id][]=%b&filter[id][]=%c',
      'filter%5Bid%5D%5B%5D=%a&filter%5Bid%5D%5B%5D=%b&filter%5Bid%5D%5B%5D=%c',
      'filter[id][500]=%a&filter[id][7]=%b&filter[id][100000]=%c',
    ];
    for (const form of forms) {
      const r = await list('leads', form.replace('%a', String(want[0])).replace('%b', String(want[1])).replace('%c', String(want[2])));
      expect(ids(r), form).toEqual(want);
    }
    expect(ids(await list('leads', `filter[id]=${want[0]}`))).toEqual([want[0]]);
    const many = Array.from({ length: 300 }, (_, i) => leads[i].id);
    expect(ids(await list('leads', `${qs.stringify({ filter: { id: many } }, { arrayFormat: 'brackets' })}&limit=250`))).toHaveLength(250);
  });

  it('filters ranges inclusively, statuses by pair, custom fields by value', async () => {
    const t = leads[3].created_at;
    const r = await list('leads', `filter[created_at][from]=${t}&filter[created_at][to]=${t}`);
    expect(ids(r)).toContain(leads[3].id);
    const lead = leads.find((l) => l.status_id === 142)!;
    const pair = await list('leads', `filter[statuses][0][pipeline_id]=${lead.pipeline_id}&filter[statuses][0][status_id]=142&limit=250`);
    for (const l of pair.json._embedded.leads) expect([l.pipeline_id, l.status_id]).toEqual([lead.pipeline_id, 142]);
    const withCf = leads.find((l) => l.custom_fields_values?.some((v: any) => v.field_type === 'multiselect'))!;
    const cf = withCf.custom_fields_values.find((v: any) => v.field_type === 'multiselect');
    const got = await list('leads', `filter[custom_fields_values][${cf.field_id}][]=${cf.values[0].enum_id}&limit=250`);
    expect(ids(got)).toContain(withCf.id);
  });

  it('refuses malformed shapes of known parameters with a 400 problem, ignores unknown ones', async () => {
    for (const q of ['filter[id][from]=1', 'filter[price][from]=abc', 'filter[statuses][0][pipeline_id]=1', 'filter[custom_fields_values][1][]=x', 'filter=abc']) {
      const r = await list('leads', q);
      expect(r.status, q).toBe(400);
      expect(r.contentType).toMatch(/^application\/problem\+json/);
    }
    expect((await list('leads', 'filter[nope]=1&limit=1')).status).toBe(200);
  });

  it('keeps the filter in _links.next', async () => {
    const user = catalog.users[0].id;
    const r = await list('leads', `filter[responsible_user_id]=${user}&limit=3`);
    expect(r.json._links.next.href).toBe(`${h.url}/api/v4/leads?filter[responsible_user_id]=${user}&limit=3&page=2`);
  });

  it('searches with query on leads, contacts and companies only', async () => {
    const name = leads[0].name;
    expect(ids(await list('leads', `query=${encodeURIComponent(name.toUpperCase())}`))).toContain(leads[0].id);
    expect((await list('customers', 'query=zzzz-nothing&limit=1')).status).toBe(200);
  });
});

describe('list control API', () => {
  it('reseeds N records per list, deterministically, and reset restores the start data', async () => {
    const a = await h.postJson('/_control/lists/reseed', { count: 40, seed: 7 });
    const b = await h.postJson('/_control/lists/reseed', { count: 40, seed: 7, include_records: false });
    expect(a.status).toBe(200);
    expect(a.json.counts).toEqual({ leads: 40, contacts: 40, companies: 40, customers: 40 });
    expect(a.json.records.leads).toHaveLength(40);
    expect(b.json.records).toBeUndefined();
    expect((await h.request('GET', '/_control/lists/leads')).json.records).toEqual(a.json.records.leads);
    expect((await h.postJson('/_control/lists/reseed', { count: -1 })).status).toBe(400);
    expect((await h.postJson('/_control/lists/reseed', { lists: ['deals'] })).status).toBe(400);
    await h.reset();
    expect((await h.request('GET', '/_control/lists/leads')).json.records).toEqual(leads);
    expect((await h.request('GET', '/_control/lists/nope')).status).toBe(404);
  });

  it('switches the paid filter feature; the account says so and the list ignores filter', async () => {
    expect((await h.postJson('/_control/lists/filter-feature', { enabled: 'no' })).status).toBe(400);
    await h.postJson('/_control/lists/filter-feature', { enabled: false });
    expect((await h.account(token, '?with=is_api_filter_enabled')).json.is_api_filter_enabled).toBe(false);
    expect((await list('leads', 'filter[id]=1&limit=1')).status).toBe(200);
    await h.reset();
    token = (await h.tokens()).access_token;
    expect((await h.account(token, '?with=is_api_filter_enabled')).json.is_api_filter_enabled).toBe(true);
  });
});

describe('list variations (src/emulator/lists/variations.ts)', () => {
  const on = (name: string) => h.emu.variations.enable(name);

  it('answers an empty list 200 with an empty page, or plain JSON without links, paged by number', async () => {
    on('lists-empty-200');
    const empty = await list('leads', 'filter[id]=1');
    expect(empty.status).toBe(200);
    expect(empty.json._embedded.leads).toEqual([]);
    on('lists-plain-json-no-links');
    const plain = await list('leads', 'limit=2&page=2');
    expect(plain.contentType).toMatch(/^application\/json/);
    expect(plain.json._links).toBeUndefined();
    expect(plain.json._embedded.leads[0]._links).toBeUndefined();
    expect(ids(plain)).toEqual(leads.map((l) => l.id).sort((a, b) => a - b).slice(2, 4));
  });

  it('refuses an open range with 400 and a reversed one with 422', async () => {
    on('lists-open-range-refused');
    on('lists-reversed-range-422');
    expect((await list('leads', 'filter[price][from]=100')).status).toBe(400);
    expect((await list('leads', 'filter[price][from]=100&filter[price][to]=200')).status).not.toBe(400);
    expect((await list('leads', 'filter[price][from]=200&filter[price][to]=100')).status).toBe(422);
  });

  it('matches a name as a substring in any case, combines parameters as alternatives, pages small and newest first', async () => {
    const name: string = leads[0].name;
    on('lists-name-substring');
    const part = await list('leads', `filter[name]=${encodeURIComponent(name.slice(1, -1).toUpperCase())}&limit=250`);
    expect(ids(part)).toContain(leads[0].id);
    on('lists-filters-any');
    const either = await list('leads', `filter[id][0]=${leads[0].id}&filter[pipeline_id][0]=${leads[1].pipeline_id}&limit=250`);
    expect(ids(either)).toEqual(expect.arrayContaining([leads[0].id, leads[1].id]));
    on('lists-small-pages');
    on('lists-id-descending');
    const first = await list('leads', 'limit=250');
    expect(first.json._embedded.leads).toHaveLength(20);
    expect(first.json._embedded.leads[0].id).toBe(Math.max(...leads.map((l) => l.id)));
    expect(first.json._links.next).toBeDefined();
  });
});
