/**
 * What a client reads before it filters (issue 40, src/emulator/lists/catalog.ts): the pipelines with their statuses,
 * the customers' statuses and each list's custom fields, served read-only from the list data, the same ids the
 * filters accept and the records carry; and a path the emulator does not serve, a 404 that says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_NAMES } from '../../src/emulator/lists/data.js';
import { Harness } from './helpers.js';

let h: Harness;
let auth: Record<string, string>;
beforeAll(async () => {
  h = await Harness.start({ seed: 40 });
  auth = { authorization: `Bearer ${(await h.tokens()).access_token}` };
});
afterAll(async () => { await h.close(); });

const get = (path: string) => h.request('GET', path, { headers: auth });
const leadsOf = (r: { status: number; json: any }): any[] => (r.status === 204 ? [] : r.json._embedded.leads);

describe('GET /api/v4/leads/pipelines', () => {
  it('answers the pipelines with their statuses as HAL JSON, each link served', async () => {
    const r = await get('/api/v4/leads/pipelines');
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^application\/hal\+json/);
    const pipelines = r.json._embedded.pipelines as any[];
    expect(r.json._total_items).toBe(pipelines.length);
    expect(pipelines.filter((p) => p.is_main)).toHaveLength(1);
    for (const p of pipelines) {
      expect(p).toMatchObject({ id: expect.any(Number), name: expect.any(String), sort: expect.any(Number), is_archive: false });
      expect(p._links.self.href).toBe(`${h.url}/api/v4/leads/pipelines/${p.id}`);
      expect((await get(`/api/v4/leads/pipelines/${p.id}`)).json.id).toBe(p.id);
      const statuses = p._embedded.statuses as any[];
      expect(statuses.length).toBeGreaterThan(2);
      for (const s of statuses) expect(s).toMatchObject({ id: expect.any(Number), name: expect.any(String), pipeline_id: p.id, is_editable: expect.any(Boolean) });
      const one = await get(new URL(statuses[0]._links.self.href).pathname);
      expect(one.json).toEqual(statuses[0]);
    }
    expect((await get('/api/v4/leads/pipelines/1')).status).toBe(404);
    expect((await h.request('POST', '/api/v4/leads/pipelines', { headers: auth })).status).toBe(405);
    expect((await h.request('GET', '/api/v4/leads/pipelines')).status).toBe(401);
  });

  it('names the pipelines and statuses the filters accept and the leads are in', async () => {
    const pipelines = (await get('/api/v4/leads/pipelines')).json._embedded.pipelines as any[];
    const known = new Set(pipelines.flatMap((p) => p._embedded.statuses.map((s: any) => `${p.id}/${s.id}`)));
    const all = leadsOf(await get('/api/v4/leads?limit=250'));
    expect(all.length).toBeGreaterThan(0);
    for (const lead of all) expect(known.has(`${lead.pipeline_id}/${lead.status_id}`), `lead ${lead.id}`).toBe(true);
    const lead = all[0];
    const byPipeline = leadsOf(await get(`/api/v4/leads?limit=250&filter[pipeline_id][0]=${lead.pipeline_id}`));
    expect(byPipeline.map((l) => l.id)).toContain(lead.id);
    for (const l of byPipeline) expect(l.pipeline_id).toBe(lead.pipeline_id);
    const byStatus = leadsOf(await get(`/api/v4/leads?limit=250&filter[statuses][0][pipeline_id]=${lead.pipeline_id}&filter[statuses][0][status_id]=${lead.status_id}`));
    expect(byStatus.map((l) => l.id)).toContain(lead.id);
    for (const l of byStatus) expect([l.pipeline_id, l.status_id]).toEqual([lead.pipeline_id, lead.status_id]);
  });
});

describe('GET /api/v4/customers/statuses', () => {
  it('answers the customers\' statuses, the ones the customers carry', async () => {
    const r = await get('/api/v4/customers/statuses');
    expect(r.status).toBe(200);
    const ids = new Set((r.json._embedded.statuses as any[]).map((s) => s.id));
    const customers = (await get('/api/v4/customers?limit=250')).json._embedded.customers as any[];
    for (const c of customers) expect(ids.has(c.status_id)).toBe(true);
  });
});

describe.each(LIST_NAMES)('GET /api/v4/%s/custom_fields', (list) => {
  it('answers the list\'s fields with their enums, the ones its records carry', async () => {
    const r = await get(`/api/v4/${list}/custom_fields`);
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^application\/hal\+json/);
    const fields = r.json._embedded.custom_fields as any[];
    expect(fields.length).toBeGreaterThan(0);
    const byId = new Map(fields.map((f) => [f.id, f]));
    for (const f of fields) {
      expect(f).toMatchObject({ entity_type: list, type: expect.any(String), _links: { self: { href: `${h.url}/api/v4/${list}/custom_fields/${f.id}` } } });
      expect((await get(`/api/v4/${list}/custom_fields/${f.id}`)).json).toEqual(f);
    }
    const records = (await get(`/api/v4/${list}?limit=250`)).json._embedded[list] as any[];
    const values = records.flatMap((rec) => rec.custom_fields_values ?? []);
    expect(values.length).toBeGreaterThan(0);
    for (const v of values) {
      const field = byId.get(v.field_id);
      expect(field, `field ${v.field_id}`).toBeDefined();
      expect(v.field_type).toBe(field.type);
      for (const item of v.values) if (item.enum_id !== undefined) expect(field.enums.map((e: any) => e.id)).toContain(item.enum_id);
    }
    expect((await h.request('PATCH', `/api/v4/${list}/custom_fields`, { headers: auth })).status).toBe(405);
  });
});

describe('a path the emulator does not serve', () => {
  it('answers 404 with a detail that says the path is not served, not that a record is missing', async () => {
    for (const path of ['/api/v4/leads/notes', '/api/v4/leads/tags', '/api/v4/tasks', '/api/v4/leads/1/notes', '/api/v2/leads', '/nothing/here']) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.json.detail, path).toMatch(/^The emulator does not serve GET on this path/);
    }
    const missing = await get('/api/v4/leads/999999999');
    expect(missing.status).toBe(404);
    expect(missing.json.detail).toBe('No record of leads has this id');
  });
});
