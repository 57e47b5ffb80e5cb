/**
 * The npm client `amocrm-js` (pinned), unchanged, against the emulator over https: code exchange, refresh of a
 * restored expired token and refresh after a 401, filtered paging through `_links` over several pages in ascending and
 * in asked order, the account with every `with=`, a lead created and updated, a lead with date fields read, changed,
 * tagged and saved back whole, one custom field changed or cleared (`values: null`) by PATCH while the others stay,
 * and a contact created by first and last name. The client only speaks https on the
 * default port to the domain it is given, through Node's `https.globalAgent`: it is given the account's own host name
 * (`<subdomain>.sandbox.localhost`, a name with a dot is used as is), and the test hands it an agent that trusts the
 * emulator's CA, resolves that name to the loopback and whose default port is the emulator's.
 */
import https from 'node:https';
import { Client } from 'amocrm-js';
import type { ILead } from 'amocrm-js/dist/api/activeRecords/Lead.js';
import type { LeadsGetCriteria } from 'amocrm-js/dist/api/factories/LeadFactory.js';
import type ResourcePaginationModule from 'amocrm-js/dist/api/ResourcePagination.js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_WITH } from '../../src/protocol/oauth.js';
import { accountWithEverything, startHttpsEmulator, type Control, type HttpsEmulator } from './https-emulator.js';
import type { ListRecord } from '../../src/emulator/lists/data.js';
import { leadWithDates, valuesById } from './records.js';

let sandbox: HttpsEmulator;
let control: Control;
let env: Record<string, string>;
let previousAgent: https.Agent;
let agent: https.Agent;
/** The domain as the client takes it: a name with a dot is used as is, on https's default port. */
let DOMAIN: string;

beforeAll(async () => {
  sandbox = await startHttpsEmulator(11);
  env = sandbox.emulator.env();
  control = sandbox.control;
  DOMAIN = sandbox.accountHost;
  previousAgent = https.globalAgent;
  // `defaultPort` is the Agent property Node's https.request reads when a request names no port (not in @types/node).
  agent = Object.assign(new https.Agent({ ca: sandbox.ca, lookup: sandbox.lookup, keepAlive: true }), { defaultPort: sandbox.port });
  https.globalAgent = agent;
});
afterAll(async () => {
  https.globalAgent = previousAgent;
  agent.destroy();
  await sandbox.close();
});
beforeEach(async () => { await control.call('POST', '/reset'); });

function client(code: string): Client {
  return new Client({ domain: DOMAIN, auth: { client_id: env.CLIENT_ID!, client_secret: env.CLIENT_SECRET!, redirect_uri: env.REDIRECT_URI!, code } });
}

describe('amocrm-js against the emulator', () => {
  it('exchanges a code, computes the expiry from Date on the emulator clock, and reads the account', async () => {
    // Three days ahead: a Date in real time would put the client's expiry three days before the token's exp.
    await control.advanceClock(3 * 86_400);
    const c = client(await control.code(env.CLIENT_ID!));
    expect(await c.connection.connect()).toBe(true);
    const token = c.token.getValue()!;
    const claims = decodeJwt(token.access_token);
    expect(token.token_type).toBe('Bearer');
    expect(Math.abs(token.expires_at! - claims.exp! * 1000)).toBeLessThanOrEqual(1_000);
    // The account's host the client called: not the emulator's bind address.
    expect(claims.api_domain).toBe(DOMAIN);

    const { data } = await c.request.get<any>('/api/v4/account', { with: 'amojo_id' });
    const world = await control.call('GET', '');
    expect(data).toMatchObject({ id: world.account.id, subdomain: world.account.subdomain, amojo_id: env.CHAT_ACCOUNT_ID });
    expect(data._links.self.href).toBe(`https://${DOMAIN}/api/v4/account`);
  });

  it('refreshes a restored token that has expired, then works with the new one', async () => {
    const c = client(await control.code(env.CLIENT_ID!));
    await c.connection.connect();
    const first = c.token.getValue()!;
    // A day later by the emulator clock; the application restores its saved token, whose expiry has passed.
    await control.advanceClock(86_400 + 60);
    c.token.setValue({ ...first, expires_at: Date.now() - 1_000 });
    const { data } = await c.request.get<any>('/api/v4/account');
    const second = c.token.getValue()!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(data.id).toBe((await control.call('GET', '')).account.id);
    const stale = await sandbox.fetch(`${sandbox.emulator.url}/api/v4/account`, { headers: { authorization: `Bearer ${first.access_token}` } });
    expect(stale.status).toBe(401);
  });

  it('pages a filtered list through _links.next to the end, and back through prev and first', async () => {
    const [pipeline, wanted] = await control.largestPipeline();
    const limit = Math.ceil(wanted.length / 4);

    const c = client(await control.code(env.CLIENT_ID!));
    // The client repeats the filter and limit from its criteria on every later page, beside the ones in the link.
    const criteria: LeadsGetCriteria = { filter: { pipeline_id: [pipeline] }, limit };
    // The factory's declared return type omits first(), which the pagination class it returns has.
    const pages = (await c.leads.get(criteria)) as unknown as ResourcePaginationModule.default<ILead>;
    const seen: number[] = pages.getData().map((l) => l.id!);
    const pageNumbers = [pages.getPage()];
    while (pages.hasNext()) {
      await pages.next();
      pageNumbers.push(pages.getPage());
      seen.push(...pages.getData().map((l) => l.id!));
    }
    expect(pageNumbers).toEqual([1, 2, 3, 4]);
    expect(seen).toEqual([...wanted].sort((a, b) => a - b));

    expect(pages.hasPrev()).toBe(true);
    await pages.prev();
    expect(pages.getPage()).toBe(3);
    await pages.first();
    expect(pages.getPage()).toBe(1);
    expect(pages.getData().map((l) => l.id)).toEqual(seen.slice(0, limit));
  });

  it('reads the account with every with= value', async () => {
    const c = client(await control.code(env.CLIENT_ID!));
    const { data } = await c.request.get<any>('/api/v4/account', { with: ACCOUNT_WITH.join(',') });
    expect(data).toMatchObject(accountWithEverything(env.CHAT_ACCOUNT_ID!));
  });

  it('pages a filtered list in the order it asks for (order[id]=desc), to the end', async () => {
    const leads: Array<{ id: number; pipeline_id: number }> = (await control.call('GET', '/lists/leads')).records;
    const pipeline = leads[0]!.pipeline_id;
    const wanted = leads.filter((l) => l.pipeline_id === pipeline).map((l) => l.id).sort((a, b) => b - a);
    const c = client(await control.code(env.CLIENT_ID!));
    // The criteria type names `order` a string; the client passes any value to qs, which writes order[id]=desc.
    const criteria = { filter: { pipeline_id: [pipeline] }, order: { id: 'desc' }, limit: Math.ceil(wanted.length / 3) } as unknown as LeadsGetCriteria;
    const pages = (await c.leads.get(criteria)) as unknown as ResourcePaginationModule.default<ILead>;
    const seen: number[] = pages.getData().map((l) => l.id!);
    while (pages.hasNext()) {
      await pages.next();
      seen.push(...pages.getData().map((l) => l.id!));
    }
    expect(seen).toEqual(wanted);
  });

  it('creates a lead and updates it through its factory', async () => {
    const c = client(await control.code(env.CLIENT_ID!));
    const [made] = await c.leads.create([{ name: 'amocrm-js lead', price: 4200 }]);
    expect(made!.id).toEqual(expect.any(Number));
    await control.advanceClock(30);
    const [changed] = await c.leads.update([{ id: made!.id!, name: 'amocrm-js lead, changed', price: 4300 }]);
    expect(changed!.updated_at).toEqual(expect.any(Number));
    const stored = (await control.call('GET', '/lists/leads')).records.find((l: { id: number }) => l.id === made!.id);
    expect(stored).toMatchObject({ name: 'amocrm-js lead, changed', price: 4300, updated_at: changed!.updated_at });
    const { data } = await c.request.get<any>(`/api/v4/leads/${made!.id}`);
    expect(data.name).toBe('amocrm-js lead, changed');
  });

  it('reads a lead with date fields, changes it and saves it back whole (read-modify-write)', async () => {
    const { lead, date, unused } = await leadWithDates(control);
    const c = client(await control.code(env.CLIENT_ID!));
    const read = (await c.leads.getById(lead.id))!;
    expect(read._embedded).toEqual({ tags: [], companies: [] });
    read.name = 'amocrm-js read-modify-write';
    read.custom_fields_values = [...read.custom_fields_values!, { field_id: unused.id, values: [{ value: 'added by amocrm-js' }] }];
    read.embeddedTags.add([{ name: 'amocrm-js' }]);
    await read.save();
    const stored: ListRecord = (await control.call('GET', '/lists/leads')).records.find((l: ListRecord) => l.id === lead.id);
    expect(stored.name).toBe('amocrm-js read-modify-write');
    expect(stored._embedded?.tags?.map((t) => t.name)).toEqual(['amocrm-js']);
    // Read back and saved again unchanged, it sends its tags by id and keeps them.
    const tagged = (await c.leads.getById(lead.id))!;
    await tagged.save();
    expect((await c.leads.getById(lead.id))!._embedded).toEqual({ tags: [{ id: stored._embedded!.tags![0]!.id, name: 'amocrm-js', color: null }], companies: [] });
    expect(valuesById(stored)).toEqual({ ...valuesById(lead), [unused.id]: ['added by amocrm-js'] });
    expect(valuesById(stored)[date.field_id]).toEqual(date.values.map((x) => x.value));
  });

  it('changes one custom field by PATCH and keeps the others; clears one with values: null', async () => {
    const { lead, other, unused } = await leadWithDates(control);
    const c = client(await control.code(env.CLIENT_ID!));
    await c.leads.update([{ id: lead.id, custom_fields_values: [{ field_id: unused.id, values: [{ value: 'added by amocrm-js' }] }] }]);
    const added = (await c.leads.getById(lead.id))!;
    expect(valuesById(added as never)).toEqual({ ...valuesById(lead), [unused.id]: ['added by amocrm-js'] });
    await c.leads.update([{ id: lead.id, custom_fields_values: [{ field_id: other.field_id, values: null }] }]);
    const cleared = (await c.leads.getById(lead.id))!;
    const { [other.field_id]: _gone, ...kept } = { ...valuesById(lead), [unused.id]: ['added by amocrm-js'] };
    expect(valuesById(cleared as never)).toEqual(kept);
  });

  it('creates a contact by first and last name and reads both back, with the name they make', async () => {
    const c = client(await control.code(env.CLIENT_ID!));
    const [made] = await c.contacts.create([{ first_name: 'Ada', last_name: 'Lovelace' }]);
    const read = (await c.contacts.getById(made!.id!))!;
    expect(read).toMatchObject({ id: made!.id, name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' });
  });

  it('gets a 401 for a token the service no longer takes, refreshes, and goes on', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const c = client(await control.code(env.CLIENT_ID!));
      await c.connection.connect();
      const first = c.token.getValue()!;
      // Past the access token's lifetime by the emulator clock, while the client's own expiry (real time) says valid.
      await control.advanceClock(86_400 + 60);
      const refused = await c.request.get<any>('/api/v4/account').then(() => undefined, (e: unknown) => e);
      expect(refused).toMatchObject({ data: { status: 401 } });
      await c.token.refresh();
      expect(c.token.getValue()!.access_token).not.toBe(first.access_token);
      const { data } = await c.request.get<any>('/api/v4/account');
      expect(data.id).toBe((await control.call('GET', '')).account.id);
    } finally {
      quiet.mockRestore();
    }
  });

  it('surfaces a refused request as its API error, with the problem body', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const c = client(await control.code(env.CLIENT_ID!));
      await expect(c.request.get('/api/v4/leads', { filter: { price: 'cheap' } })).rejects.toMatchObject({
        message: 'API_RESPONSE_ERROR',
        data: { status: 400, title: 'Bad Request', detail: expect.stringContaining('filter[price]') },
      });
    } finally {
      quiet.mockRestore();
    }
  });
});
