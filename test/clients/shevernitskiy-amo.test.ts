/**
 * The npm client `@shevernitskiy/amo` (pinned), unchanged, against the emulator over https: code exchange, refresh of
 * a restored expired token and refresh after a 401, filtered paging by `page` over several pages in ascending and in
 * asked order, a record by its id, the account with every `with=`, a lead added and updated, a lead with date fields
 * read and saved back whole with a tag, one custom field changed or cleared (`values: null`) by PATCH while the others
 * stay, a contact added by first and last name, and its error classes (it
 * takes a response for an API error only when the Content-Type is exactly `application/problem+json`). It is
 * https-only and calls the global `fetch` on the host it is given: it is given the account's own host name
 * (`<subdomain>.sandbox.localhost:<port>`), and the test sets a global dispatcher that trusts the emulator's CA and
 * resolves that name to the loopback.
 */
import { Amo, type OAuth } from '@shevernitskiy/amo';
import type { CustomFieldsValue } from '@shevernitskiy/amo/src/typings/entities.js';
import { decodeJwt } from 'jose';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_WITH } from '../../src/protocol/oauth.js';
import { accountWithEverything, startHttpsEmulator, type Control, type HttpsEmulator } from './https-emulator.js';
import { leadWithDates, valuesById } from './records.js';

let sandbox: HttpsEmulator;
/** What the client is given as its base domain: the account's host name and the emulator's port. */
let front: { host: string };
let control: Control;
let env: Record<string, string>;
let previousDispatcher: Dispatcher;
let trusting: Agent;

beforeAll(async () => {
  sandbox = await startHttpsEmulator(12);
  env = sandbox.emulator.env();
  front = { host: `${sandbox.accountHost}:${sandbox.port}` };
  control = sandbox.control;
  previousDispatcher = getGlobalDispatcher();
  trusting = new Agent({ connect: { ca: sandbox.ca, lookup: sandbox.lookup } });
  setGlobalDispatcher(trusting);
});
afterAll(async () => {
  setGlobalDispatcher(previousDispatcher);
  await trusting.close();
  await sandbox.close();
});
beforeEach(async () => { await control.call('POST', '/reset'); });

/** The client paces its requests (150 ms by default); the emulator has no rate limit unless one is set. */
const OPTIONS = { request_delay: 0 };

async function connected(onToken: (t: OAuth) => void = () => {}): Promise<Amo> {
  const code = await control.code(env.CLIENT_ID!);
  return new Amo(front.host, {
    client_id: env.CLIENT_ID!, client_secret: env.CLIENT_SECRET!, grant_type: 'authorization_code', code, redirect_uri: env.REDIRECT_URI!,
  }, { ...OPTIONS, on_token: onToken });
}

describe('@shevernitskiy/amo against the emulator', () => {
  it('exchanges a code and reads the account', async () => {
    const tokens: OAuth[] = [];
    const amo = await connected((t) => { tokens.push(t); });
    const account = await amo.account.getAccount({ with: ['amojo_id'] });
    const world = await control.call('GET', '');
    expect(account).toMatchObject({ id: world.account.id, subdomain: world.account.subdomain, amojo_id: env.CHAT_ACCOUNT_ID });
    expect(tokens).toHaveLength(1);
    // The account's host and the port the client called, not the emulator's bind address.
    expect(decodeJwt(tokens[0]!.access_token).api_domain).toBe(front.host);
    expect((account as any)._links.self.href).toBe(`https://${front.host}/api/v4/account`);
  });

  it('refreshes a restored token that has expired, then works with the new one', async () => {
    const first: OAuth[] = [];
    await (await connected((t) => { first.push(t); })).account.getAccount();
    await control.advanceClock(86_400 + 60);
    const refreshed: OAuth[] = [];
    const restored = new Amo(front.host, {
      ...first[0]!, expires_at: Date.now() - 1_000,
      client_id: env.CLIENT_ID!, client_secret: env.CLIENT_SECRET!, redirect_uri: env.REDIRECT_URI!,
    }, { ...OPTIONS, on_token: (t) => { refreshed.push(t); } });
    const account = await restored.account.getAccount();
    expect(account.id).toBe((await control.call('GET', '')).account.id);
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]!.refresh_token).not.toBe(first[0]!.refresh_token);
    expect(refreshed[0]!.access_token).not.toBe(first[0]!.access_token);
  });

  it('pages a filtered list by page number to its end, and reads a record by id', async () => {
    const [pipeline, wanted] = await control.largestPipeline();
    const limit = Math.ceil(wanted.length / 3);

    const amo = await connected();
    const seen: number[] = [];
    let page = 1;
    for (;; page += 1) {
      const answer = await amo.lead.getLeads({ page, limit, filter: (f) => f.multi('pipeline_id', [pipeline]) });
      expect(answer._page).toBe(page);
      seen.push(...answer._embedded.leads.map((l) => l.id));
      if (!answer._links.next) break;
    }
    expect(page).toBe(3);
    expect(seen).toEqual([...wanted].sort((a, b) => a - b));
    // Past the last record the list answers 204, which this client raises as its NoContentError.
    await expect(amo.lead.getLeads({ page: page + 1, limit, filter: (f) => f.multi('pipeline_id', [pipeline]) })).rejects.toThrow(/^204 No Content, https:/);

    const one = await amo.lead.getLeadById(seen[1]!);
    expect(one.id).toBe(seen[1]);
    expect(one.pipeline_id).toBe(pipeline);
  });

  it('reads the account with every with= value', async () => {
    const amo = await connected();
    // The client's type names every value but `uuid`, which it never asks for.
    const account = await amo.account.getAccount({ with: ACCOUNT_WITH.filter((w): w is Exclude<typeof w, 'uuid'> => w !== 'uuid') });
    expect(account).toMatchObject(accountWithEverything(env.CHAT_ACCOUNT_ID!));
  });

  it('pages a filtered list in the order it asks for, by created_at and by updated_at', async () => {
    const leads: Array<{ id: number; pipeline_id: number; created_at: number; updated_at: number }> = (await control.call('GET', '/lists/leads')).records;
    const pipeline = leads[0]!.pipeline_id;
    const amo = await connected();
    for (const param of ['created_at', 'updated_at'] as const) {
      const wanted = leads.filter((l) => l.pipeline_id === pipeline).sort((a, b) => b[param] - a[param] || a.id - b.id).map((l) => l.id);
      const limit = Math.ceil(wanted.length / 3);
      const seen: number[] = [];
      for (let page = 1; ; page += 1) {
        const answer = await amo.lead.getLeads({ page, limit, order: { param, type: 'desc' }, filter: (f) => f.multi('pipeline_id', [pipeline]) });
        seen.push(...answer._embedded.leads.map((l) => l.id));
        if (!answer._links.next) break;
      }
      expect(seen, param).toEqual(wanted);
    }
  });

  it('adds a lead and updates it by id', async () => {
    const amo = await connected();
    const added = await amo.lead.addLeads([{ name: 'shevernitskiy lead', price: 1200 }]);
    const made = added._embedded.leads![0]!;
    const id = made.id;
    expect(made._links.self.href).toBe(`https://${front.host}/api/v4/leads/${id}`);
    await control.advanceClock(30);
    const updated = await amo.lead.updateLeadById(id, { price: 1300 });
    expect(updated).toMatchObject({ id, updated_at: expect.any(Number) });
    const read = await amo.lead.getLeadById(id);
    expect(read).toMatchObject({ id, name: 'shevernitskiy lead', price: 1300, updated_at: updated.updated_at });
  });

  it('reads a lead with date fields, changes it and saves it back whole (read-modify-write)', async () => {
    const { lead, date, unused } = await leadWithDates(control);
    const amo = await connected();
    const read = await amo.lead.getLeadById(lead.id);
    expect((read as unknown as { _embedded: unknown })._embedded).toEqual({ tags: [], companies: [] });
    const added = { field_id: unused.id, values: [{ value: 'added by shevernitskiy' }] } as CustomFieldsValue;
    await amo.lead.updateLeadById(lead.id, { name: 'shevernitskiy read-modify-write', custom_fields_values: [...read.custom_fields_values!, added], _embedded: { tags: [{ name: 'shevernitskiy' }] } });
    const again = await amo.lead.getLeadById(lead.id);
    expect(again.name).toBe('shevernitskiy read-modify-write');
    expect((again as unknown as { _embedded: unknown })._embedded).toEqual({ tags: [{ id: expect.any(Number), name: 'shevernitskiy', color: null }], companies: [] });
    expect(valuesById(again as never)).toEqual({ ...valuesById(lead), [unused.id]: ['added by shevernitskiy'] });
    expect(valuesById(again as never)[date.field_id]).toEqual(date.values.map((x) => x.value));
  });

  it('changes one custom field by PATCH and keeps the others; clears one with values: null', async () => {
    const { lead, other, unused } = await leadWithDates(control);
    const amo = await connected();
    // The client's type for a field value has no `values`; it sends what it is given.
    await amo.lead.updateLeads([{ id: lead.id, custom_fields_values: [{ field_id: unused.id, values: [{ value: 'one field' }] } as CustomFieldsValue] }]);
    const expected: Record<number, unknown[]> = { ...valuesById(lead), [unused.id]: ['one field'] };
    expect(valuesById(await amo.lead.getLeadById(lead.id) as never)).toEqual(expected);
    await amo.lead.updateLeadById(lead.id, { custom_fields_values: [{ field_id: other.field_id, values: null } as CustomFieldsValue] });
    delete expected[other.field_id];
    expect(valuesById(await amo.lead.getLeadById(lead.id) as never)).toEqual(expected);
  });

  it('adds a contact by first and last name and reads both back, with the name they make', async () => {
    const amo = await connected();
    const added = await amo.contact.addContacts([{ first_name: 'Grace', last_name: 'Hopper' }]);
    const id = added._embedded.contacts[0]!.id;
    expect(await amo.contact.getContactById(id)).toMatchObject({ id, name: 'Grace Hopper', first_name: 'Grace', last_name: 'Hopper' });
  });

  it('gets a 401 for a token the service no longer takes, then refreshes from the stored pair', async () => {
    const first: OAuth[] = [];
    const amo = await connected((t) => { first.push(t); });
    await amo.account.getAccount();
    // Past the access token's lifetime by the emulator clock, while the client's own expiry (real time) says valid.
    await control.advanceClock(86_400 + 60);
    const refused = await amo.account.getAccount().catch((e: unknown) => e);
    expect(refused).toMatchObject({ message: expect.stringMatching(/^401 Unauthorized, https:/), response: { status: 401 } });
    // The application's answer to a 401: the stored pair, marked expired, so the client refreshes before its next call.
    const refreshed: OAuth[] = [];
    const again = new Amo(front.host, {
      ...first[0]!, expires_at: 0, client_id: env.CLIENT_ID!, client_secret: env.CLIENT_SECRET!, redirect_uri: env.REDIRECT_URI!,
    }, { ...OPTIONS, on_token: (t) => { refreshed.push(t); } });
    expect((await again.account.getAccount()).id).toBe((await control.call('GET', '')).account.id);
    expect(refreshed).toHaveLength(1);
  });

  it('raises a refused request as ApiError with the problem body, and an unknown record too', async () => {
    const amo = await connected();
    await amo.account.getAccount();
    const refused = await amo.lead.getLeads({ filter: (f) => f.range('price', 'cheap' as unknown as number, 1) }).catch((e: unknown) => e);
    // Its ES5 build breaks `instanceof` on its error classes; an ApiError is the one carrying the parsed problem as
    // `response` (an HttpError carries the raw text as its message).
    expect(refused).toMatchObject({ message: expect.stringMatching(/^400 Bad Request, https:/), response: { status: 400, title: 'Bad Request', detail: expect.stringContaining('filter[price]') } });
    const missing = await amo.lead.getLeadById(1).catch((e: unknown) => e);
    expect(missing).toMatchObject({ message: expect.stringMatching(/^404 Not Found, https:/), response: { status: 404 } });
  });
});
