/**
 * The records as the live service keeps them (issue 30, docs/emulator.md "Lists and records"): date custom fields
 * written as RFC 3339 strings or seconds and read as seconds, custom fields merged by field on PATCH (`values: null`
 * clears one, the others stay), contacts' first and last names, each record's `_embedded` and its tags, the customers'
 * purchase fields, `with=only_deleted`, and the account's `uuid` and `customers_mode`. Real HTTP against an instance.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CfValue, CustomFieldDef, ListRecord } from '../../src/emulator/lists/data.js';
import { Harness } from './helpers.js';

let h: Harness;
let token: string;
let fields: Record<string, CustomFieldDef[]>;
beforeAll(async () => {
  h = await Harness.start({ seed: 30 });
  fields = (await h.request('GET', '/_control/lists')).json.catalog.custom_fields;
});
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await h.reset();
  token = (await h.tokens()).access_token;
});

const auth = () => ({ authorization: `Bearer ${token}` });
const get = (path: string) => h.request('GET', path, { headers: auth() });
const send = (method: string, path: string, body: unknown) =>
  h.request(method, path, { body: JSON.stringify(body), headers: { ...auth(), 'content-type': 'application/json' } });
const field = (list: string, type: string): CustomFieldDef => fields[list]!.find((f) => f.type === type)!;
const valuesOf = (record: { custom_fields_values: CfValue[] | null }): Record<number, unknown[]> =>
  Object.fromEntries((record.custom_fields_values ?? []).map((v) => [v.field_id, v.values.map((x) => x.value)]));

/** A seeded lead holding values of at least three fields, one of them a date. */
async function leadWithDates(): Promise<ListRecord> {
  const leads: ListRecord[] = (await h.request('GET', '/_control/lists/leads')).json.records;
  const date = field('leads', 'date').id;
  return leads.find((l) => (l.custom_fields_values ?? []).length >= 3 && l.custom_fields_values!.some((v) => v.field_id === date))!;
}

describe('date custom fields', () => {
  it('take an RFC 3339 string, with any offset, or Unix seconds, and read back as seconds', async () => {
    const date = field('leads', 'date').id;
    const dateTime = field('leads', 'date_time').id;
    const cases: Array<[unknown, number]> = [
      ['2021-03-01T00:00:00+03:00', 1_614_546_000], ['2021-03-01T00:00:00Z', 1_614_556_800], ['2021-03-01T00:00:00.750+00:00', 1_614_556_800], [1_614_556_800, 1_614_556_800],
    ];
    for (const [sent, seconds] of cases) {
      const made = await send('POST', '/api/v4/leads', [{ custom_fields_values: [{ field_id: date, values: [{ value: sent }] }, { field_id: dateTime, values: [{ value: sent }] }] }]);
      expect(made.status, String(sent)).toBe(200);
      const read = await get(`/api/v4/leads/${made.json._embedded.leads[0].id}`);
      expect(valuesOf(read.json), String(sent)).toEqual({ [date]: [seconds], [dateTime]: [seconds] });
    }
  });

  it('refuse a string that is not an RFC 3339 date-time, naming the value', async () => {
    const date = field('leads', 'date').id;
    for (const value of ['2021-03-01', '01.03.2021', 'tomorrow', '2021-03-01T00:00:00', -5]) {
      const r = await send('POST', '/api/v4/leads', [{ custom_fields_values: [{ field_id: date, values: [{ value }] }] }]);
      expect(r.status, String(value)).toBe(400);
      expect(r.json['validation-errors'][0].errors[0].path, String(value)).toBe('custom_fields_values.0.values.0');
    }
  });

  it('round-trip a read record changed and sent back with its dates as RFC 3339 (the PHP client\'s read-modify-write)', async () => {
    const lead = await leadWithDates();
    const asPhpSends = lead.custom_fields_values!.map((v) => ({
      field_id: v.field_id, field_code: v.field_code,
      values: v.values.map((x) => (v.field_type === 'date' || v.field_type === 'date_time' ? { value: new Date(Number(x.value) * 1000).toISOString().replace('.000Z', '+00:00') } : x)),
    }));
    const r = await send('PATCH', `/api/v4/leads/${lead.id}`, { id: lead.id, name: 'Renamed', custom_fields_values: asPhpSends, request_id: 0 });
    expect(r.status).toBe(200);
    const read = await get(`/api/v4/leads/${lead.id}`);
    expect(read.json.name).toBe('Renamed');
    expect(read.json.custom_fields_values).toEqual(lead.custom_fields_values);
  });
});

describe('custom fields on PATCH', () => {
  it('replace the values of the fields named and keep every other field', async () => {
    const lead = await leadWithDates();
    const [first, ...rest] = lead.custom_fields_values!;
    const text = field('leads', 'text').id;
    const changed = first!.field_id === text ? field('leads', 'numeric') : field('leads', 'text');
    const value = changed.type === 'text' ? 'one field changed' : 4242;
    expect((await send('PATCH', `/api/v4/leads/${lead.id}`, { custom_fields_values: [{ field_id: changed.id, values: [{ value }] }] })).status).toBe(200);
    const after = valuesOf((await get(`/api/v4/leads/${lead.id}`)).json);
    expect(after).toEqual({ ...valuesOf(lead as never), [changed.id]: [value] });
    expect(Object.keys(after).length).toBeGreaterThanOrEqual(rest.length + 1);
    // An empty list names no field, so it changes none.
    expect((await send('PATCH', `/api/v4/leads/${lead.id}`, { custom_fields_values: [] })).status).toBe(200);
    expect(valuesOf((await get(`/api/v4/leads/${lead.id}`)).json)).toEqual(after);
  });

  it('clear a field sent with values: null, and leave the others', async () => {
    const lead = await leadWithDates();
    const [gone, ...kept] = lead.custom_fields_values!;
    const r = await send('PATCH', '/api/v4/leads', [{ id: lead.id, custom_fields_values: [{ field_id: gone!.field_id, field_code: null, values: null }] }]);
    expect(r.status).toBe(200);
    const read = (await get(`/api/v4/leads/${lead.id}`)).json;
    expect(read.custom_fields_values).toEqual(kept);
    // Clearing the last field leaves the record without custom fields, as a new record has none.
    const all = kept.map((v) => ({ field_id: v.field_id, values: null }));
    expect((await send('PATCH', `/api/v4/leads/${lead.id}`, { custom_fields_values: all })).status).toBe(200);
    expect((await get(`/api/v4/leads/${lead.id}`)).json.custom_fields_values).toBeNull();
  });

  it('still refuse a field of no catalog and an empty values array', async () => {
    const lead = await leadWithDates();
    for (const cfv of [[{ field_id: 1, values: null }], [{ field_id: field('leads', 'text').id, values: [] }]]) {
      expect((await send('PATCH', `/api/v4/leads/${lead.id}`, { custom_fields_values: cfv })).status, JSON.stringify(cfv)).toBe(400);
    }
    expect((await get(`/api/v4/leads/${lead.id}`)).json.custom_fields_values).toEqual(lead.custom_fields_values);
  });
});

describe('contacts\' first and last names', () => {
  it('name a contact created by them alone, and show both', async () => {
    const made = await send('POST', '/api/v4/contacts', [{ first_name: 'Ada', last_name: 'Lovelace' }, { first_name: 'Plato' }, { name: 'Given', first_name: 'Not', last_name: 'Used' }]);
    expect(made.status).toBe(200);
    const [a, b, c] = made.json._embedded.contacts as Array<{ id: number }>;
    expect((await get(`/api/v4/contacts/${a!.id}`)).json).toMatchObject({ name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' });
    expect((await get(`/api/v4/contacts/${b!.id}`)).json).toMatchObject({ name: 'Plato', first_name: 'Plato', last_name: '' });
    expect((await get(`/api/v4/contacts/${c!.id}`)).json).toMatchObject({ name: 'Given', first_name: 'Not', last_name: 'Used' });
    await send('PATCH', `/api/v4/contacts/${a!.id}`, { last_name: 'King' });
    expect((await get(`/api/v4/contacts/${a!.id}`)).json).toMatchObject({ name: 'Ada King', first_name: 'Ada', last_name: 'King' });
    expect((await send('POST', '/api/v4/contacts', [{ first_name: 42 }])).json['validation-errors'][0].errors[0].path).toBe('first_name');
  });

  it('are on every seeded contact, and on no other list', async () => {
    const contacts = (await get('/api/v4/contacts?limit=250')).json._embedded.contacts as Array<Record<string, unknown>>;
    for (const c of contacts) expect(`${c.first_name as string} ${c.last_name as string}`.trim()).toBe(c.name);
    const lead = (await get('/api/v4/leads?limit=1')).json._embedded.leads[0];
    expect(lead).not.toHaveProperty('first_name');
  });
});

describe('what a record carries', () => {
  it('has _embedded on every list, in the list and by id; with= adds the linked lists, empty', async () => {
    const want = { leads: ['tags', 'companies'], contacts: ['tags', 'companies'], companies: ['tags'], customers: ['segments', 'tags'] };
    for (const [list, keys] of Object.entries(want)) {
      const page = (await get(`/api/v4/${list}?limit=3`)).json._embedded[list] as Array<{ id: number; _embedded: unknown }>;
      for (const r of page) expect(r._embedded, list).toEqual(Object.fromEntries(keys.map((k) => [k, []])));
      expect((await get(`/api/v4/${list}/${page[0]!.id}`)).json._embedded, list).toEqual(Object.fromEntries(keys.map((k) => [k, []])));
    }
    const withContacts = (await get('/api/v4/leads?limit=2&with=contacts')).json._embedded.leads[0];
    expect(withContacts._embedded).toEqual({ tags: [], companies: [], contacts: [] });
    expect((await get(`/api/v4/leads/${withContacts.id as number}?with=contacts`)).json._embedded).toHaveProperty('contacts', []);
  });

  it('lists no record for with=only_deleted: the emulator deletes none', async () => {
    for (const list of ['leads', 'contacts', 'companies', 'customers']) {
      const r = await get(`/api/v4/${list}?with=only_deleted`);
      expect(r.status, list).toBe(204);
    }
    expect((await get('/api/v4/leads?with=contacts')).status).toBe(200);
  });

  it('keeps the tags a write names in _embedded.tags, by name or id, and changes them with tags_to_add and tags_to_delete', async () => {
    const contact = (await get('/api/v4/contacts?limit=1')).json._embedded.contacts[0];
    const made = await send('POST', '/api/v4/leads', [{ name: 'Tagged', _embedded: { tags: [{ name: 'vip' }, { name: 'vip' }], contacts: [{ id: contact.id }] } }]);
    expect(made.status).toBe(200);
    const id = made.json._embedded.leads[0].id as number;
    const read = (await get(`/api/v4/leads/${id}?with=contacts`)).json._embedded;
    expect(read).toEqual({ tags: [{ id: expect.any(Number), name: 'vip', color: null }], companies: [], contacts: [expect.objectContaining({ id: contact.id })] });
    const vip = read.tags[0].id as number;
    // The same name is the same tag; an id names it too; an unknown id is refused with its path.
    const again = await send('POST', '/api/v4/leads', [{ _embedded: { tags: [{ name: 'vip' }] } }, { _embedded: { tags: [{ id: vip }] } }]);
    for (const l of again.json._embedded.leads as Array<{ id: number }>) expect((await get(`/api/v4/leads/${l.id}`)).json._embedded.tags).toEqual([{ id: vip, name: 'vip', color: null }]);
    const unknown = await send('PATCH', `/api/v4/leads/${id}`, { _embedded: { tags: [{ id: 1 }] } });
    expect(unknown.status).toBe(400);
    expect(unknown.json['validation-errors'][0].errors[0].path).toBe('_embedded.tags.0.id');

    await send('PATCH', `/api/v4/leads/${id}`, { tags_to_add: [{ name: 'new' }] });
    expect((await get(`/api/v4/leads/${id}`)).json._embedded.tags.map((t: { name: string }) => t.name)).toEqual(['vip', 'new']);
    await send('PATCH', '/api/v4/leads', [{ id, tags_to_delete: [{ name: 'vip' }] }]);
    expect((await get(`/api/v4/leads/${id}`)).json._embedded.tags.map((t: { name: string }) => t.name)).toEqual(['new']);
    // A change that names no tags keeps them; an empty _embedded.tags clears them.
    await send('PATCH', `/api/v4/leads/${id}`, { name: 'Still tagged' });
    expect((await get(`/api/v4/leads/${id}`)).json._embedded.tags).toHaveLength(1);
    await send('PATCH', `/api/v4/leads/${id}`, { _embedded: { tags: [] } });
    expect((await get(`/api/v4/leads/${id}`)).json._embedded.tags).toEqual([]);

    // The list's tags are in the catalog until a reset.
    expect((await h.request('GET', '/_control/lists')).json.catalog.tags.leads.map((t: { name: string }) => t.name)).toEqual(['vip', 'new']);
    await h.reset();
    expect((await h.request('GET', '/_control/lists')).json.catalog.tags.leads).toEqual([]);
  });

  it('links a new record to the contacts and company its _embedded names, with their links; a change\'s links are ignored', async () => {
    const [c1, c2] = (await get('/api/v4/contacts?limit=2')).json._embedded.contacts as Array<{ id: number }>;
    const [company, other] = (await get('/api/v4/companies?limit=2')).json._embedded.companies as Array<{ id: number }>;
    const made = await send('POST', '/api/v4/leads', [{ name: 'Linked', _embedded: { contacts: [{ id: c1!.id }, { id: c2!.id, is_main: true }], companies: [{ id: company!.id }] } }]);
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    const id = made.json._embedded.leads[0].id as number;
    const base = `${h.url}/api/v4`;
    const want = {
      tags: [],
      companies: [{ id: company!.id, _links: { self: { href: `${base}/companies/${company!.id}` } } }],
      contacts: [
        { id: c1!.id, is_main: false, _links: { self: { href: `${base}/contacts/${c1!.id}` } } },
        { id: c2!.id, is_main: true, _links: { self: { href: `${base}/contacts/${c2!.id}` } } },
      ],
    };
    expect((await get(`/api/v4/leads/${id}?with=contacts`)).json._embedded).toEqual(want);
    const listed = (await get(`/api/v4/leads?filter[id]=${id}&with=contacts`)).json._embedded.leads[0];
    expect(listed._embedded).toEqual(want);
    // Without with=contacts the lead shows its company, not its contacts.
    expect((await get(`/api/v4/leads/${id}`)).json._embedded).toEqual({ tags: [], companies: want.companies });

    // A change's _embedded links are ignored, as the live service links through an endpoint the emulator does not serve.
    expect((await send('PATCH', `/api/v4/leads/${id}`, { _embedded: { companies: [{ id: other!.id }], tags: [{ name: 'kept' }] } })).status).toBe(200);
    expect((await get(`/api/v4/leads/${id}`)).json._embedded).toEqual({ tags: [expect.objectContaining({ name: 'kept' })], companies: want.companies });

    // A record of no such list, two companies: refused with the path, nothing made.
    const bad = await send('POST', '/api/v4/leads', [{ _embedded: { contacts: [{ id: company!.id }] } }, { _embedded: { companies: [{ id: company!.id }, { id: other!.id }] } }]);
    expect(bad.status).toBe(400);
    expect(bad.json['validation-errors'].map((e: { errors: Array<{ path: string }> }) => e.errors[0]!.path)).toEqual(['_embedded.contacts.0.id', '_embedded.companies']);

    // A contact takes its company; the reverse links (a company's contacts) are not kept.
    const contact = await send('POST', '/api/v4/contacts', [{ first_name: 'Linked', _embedded: { companies: [{ id: company!.id }] } }]);
    expect((await get(`/api/v4/contacts/${contact.json._embedded.contacts[0].id as number}`)).json._embedded.companies).toEqual(want.companies);
    expect((await get(`/api/v4/companies/${company!.id}?with=contacts,leads`)).json._embedded).toEqual({ tags: [], contacts: [], leads: [] });
  });

  it('lists a tagged record with its tags, and deletes nothing', async () => {
    const made = await send('POST', '/api/v4/companies', [{ name: 'Tagged company', _embedded: { tags: [{ name: 'partner' }] } }]);
    const id = made.json._embedded.companies[0].id as number;
    const page = (await get(`/api/v4/companies?filter[id]=${id}`)).json._embedded.companies;
    expect(page[0]._embedded).toEqual({ tags: [{ id: expect.any(Number), name: 'partner', color: null }] });
    expect((await h.request('DELETE', `/api/v4/companies/${id}`, { headers: auth() })).status).toBe(405);
    // Nor does it link existing records: the link endpoints are not served (docs/emulator.md).
    expect((await send('POST', '/api/v4/companies/link', [{ to_entity_id: id, to_entity_type: 'contacts' }])).status).toBe(405);
    expect((await send('POST', `/api/v4/companies/${id}/link`, [{ to_entity_id: id, to_entity_type: 'contacts' }])).status).toBe(404);
    expect((await get(`/api/v4/companies/${id}`)).status).toBe(200);
  });

  it('gives customers periodicity, ltv, purchases_count and average_check, and takes periodicity', async () => {
    const customers = (await get('/api/v4/customers?limit=50')).json._embedded.customers as Array<Record<string, number>>;
    for (const c of customers) {
      for (const k of ['periodicity', 'ltv', 'purchases_count', 'average_check']) expect(c[k], k).toEqual(expect.any(Number));
      expect(c.ltv).toBe(c.purchases_count! * c.average_check!);
    }
    const made = await send('POST', '/api/v4/customers', [{ name: 'Monthly', periodicity: 30 }]);
    const read = (await get(`/api/v4/customers/${made.json._embedded.customers[0].id}`)).json;
    expect(read).toMatchObject({ periodicity: 30, ltv: 0, purchases_count: 0, average_check: 0 });
    expect((await send('POST', '/api/v4/customers', [{ periodicity: 'weekly' }])).status).toBe(400);
  });

  it('has an account whose with=uuid is a stable UUID and whose customers_mode says customers are on', async () => {
    const a = (await get('/api/v4/account?with=uuid')).json;
    expect(a.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await get('/api/v4/account?with=uuid')).json.uuid).toBe(a.uuid);
    expect((await get('/api/v4/account')).json).not.toHaveProperty('uuid');
    expect(a.customers_mode).toBe('periodicity');
  });

  it('names the account\'s entities where each public client looks: at the top level and under _embedded', async () => {
    const a = (await get('/api/v4/account?with=entity_names')).json;
    expect(a.entity_names.contacts.en.singular_form.default).toBe('contact');
    expect(a._embedded.entity_names).toEqual(a.entity_names);
  });
});
