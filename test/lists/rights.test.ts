/**
 * Rights inside one account (§1 item 3, §4.2 "Access follows the user's rights", §5.1 item 2): the emulator's user
 * who may see only his own deals, his tokens, and the lists.rights rules against it, with and without a control API,
 * under their faults and under the variation that refuses what is beyond his rights.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import type { RuleResult } from '../../src/model/result.js';
import type { TargetConfig } from '../../src/model/target.js';
import { executeRun } from '../../src/runner/execute.js';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../src/targets/embedded.js';
import { Harness } from '../emulator/helpers.js';

const RULE_IDS = ['lists.rights.own-leads-only', 'lists.rights.filter-id', 'lists.rights.filters-within-rights', 'lists.rights.refresh-keeps-rights'];
/** The rule that spends a refresh token of his, which only a control API mints. */
const REFRESH_RULE = 'lists.rights.refresh-keeps-rights';

interface Lead { id: number; responsible_user_id: number; name: string }

describe('the emulator\'s user who may see only his own deals', () => {
  let h: Harness;
  let restrictedId: number;
  let truth: Lead[];
  let mine: Set<number>;
  let theirs: Lead[];

  /** A token from the user's consent, exchanged as a client would. */
  const tokenOf = async (userId: number): Promise<string> => {
    const consent = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', user_id: userId });
    expect(consent.status).toBe(200);
    const r = await h.exchange(h.codeRequest(consent.json.code));
    expect(r.status).toBe(200);
    return r.json.access_token as string;
  };
  const get = (token: string, path: string) => h.request('GET', path, { headers: { authorization: `Bearer ${token}` } });
  /** Every lead the token lists, page by page along `_links.next`. */
  const allLeads = async (token: string, limit: number): Promise<Lead[]> => {
    const out: Lead[] = [];
    let path: string | undefined = `/api/v4/leads?limit=${limit}`;
    while (path) {
      const r = await get(token, path);
      if (r.status === 204) break;
      expect(r.status).toBe(200);
      out.push(...r.json._embedded.leads);
      path = r.json._links.next?.href?.slice(h.url.length);
    }
    return out;
  };

  beforeAll(async () => { h = await Harness.start({ seed: 42 }); });
  afterAll(async () => { await h.close(); });
  beforeEach(async () => {
    await h.reset();
    const { users } = (await h.request('GET', '/_control/users')).json as { users: { id: number; is_admin: boolean; deals: string }[] };
    expect(users.map((u) => [u.is_admin, u.deals])).toEqual([[true, 'all'], [false, 'own']]);
    restrictedId = users[1]!.id;
    truth = (await h.request('GET', '/_control/lists/leads')).json.records;
    mine = new Set(truth.filter((l) => l.responsible_user_id === restrictedId).map((l) => l.id));
    theirs = truth.filter((l) => l.responsible_user_id !== restrictedId);
  });

  it('is responsible for some of the seeded deals and leaves most to others, at any record count', async () => {
    expect(mine.size).toBeGreaterThan(20);
    expect(mine.size).toBeLessThan(truth.length / 4);
    const reseeded = (await h.postJson('/_control/lists/reseed', { count: 10, seed: 3 })).json.records.leads as Lead[];
    expect(reseeded.filter((l) => l.responsible_user_id === restrictedId)).toHaveLength(1);
  });

  it('lists exactly his deals, page after page, to his token; the administrator\'s still lists every deal', async () => {
    const his = await allLeads(await tokenOf(restrictedId), 25);
    expect(new Set(his.map((l) => l.id))).toEqual(mine);
    expect(his).toHaveLength(mine.size);
    const admin = await allLeads((await h.tokens()).access_token, 250);
    expect(admin).toHaveLength(truth.length);
  });

  it('gives him none of another user\'s deals by filter[id], filter[responsible_user_id] or search, and his own by filter[id]', async () => {
    const token = await tokenOf(restrictedId);
    const other = theirs[0]!;
    expect((await get(token, `/api/v4/leads?filter[id][]=${other.id}`)).status).toBe(204);
    expect((await get(token, `/api/v4/leads?filter[responsible_user_id]=${other.responsible_user_id}`)).status).toBe(204);
    const search = await get(token, `/api/v4/leads?query=${encodeURIComponent(other.name)}`);
    for (const l of (search.status === 204 ? [] : search.json._embedded.leads) as Lead[]) expect(l.responsible_user_id).toBe(restrictedId);
    const own = [...mine][0]!;
    const found = await get(token, `/api/v4/leads?filter[id][]=${own}&filter[id][]=${other.id}`);
    expect(found.json._embedded.leads.map((l: Lead) => l.id)).toEqual([own]);
  });

  it('under rights-beyond-refused-403, refuses him filter[responsible_user_id] of another user and serves his own id however the filter spells it', async () => {
    const token = await tokenOf(restrictedId);
    expect((await h.postJson('/_control/variations', { enable: ['rights-beyond-refused-403'] })).status).toBe(200);
    try {
      expect((await get(token, `/api/v4/leads?filter[responsible_user_id]=${theirs[0]!.responsible_user_id}`)).status).toBe(403);
      for (const spelt of [`${restrictedId}`, `0${restrictedId}`, `%20${restrictedId}`]) {
        const r = await get(token, `/api/v4/leads?limit=250&filter[responsible_user_id]=${spelt}`);
        expect(r.status, spelt).toBe(200);
        expect(new Set(r.json._embedded.leads.map((l: Lead) => l.id)), spelt).toEqual(mine);
      }
    } finally {
      await h.postJson('/_control/variations', { disable: ['rights-beyond-refused-403'] });
    }
  });

  it('refuses him another user\'s deal by its own address (403), read or changed, and serves and changes his own', async () => {
    const token = await tokenOf(restrictedId);
    const patch = (path: string, body: unknown) => h.request('PATCH', path, { body: JSON.stringify(body), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
    const other = theirs[0]!;
    const own = [...mine][0]!;
    expect((await get(token, `/api/v4/leads/${other.id}`)).status).toBe(403);
    expect((await get(token, `/api/v4/leads/${own}`)).status).toBe(200);
    expect((await patch(`/api/v4/leads/${other.id}`, { name: 'Taken' })).status).toBe(403);
    expect((await patch('/api/v4/leads', [{ id: own, name: 'Mine' }, { id: other.id, name: 'Taken' }])).status).toBe(403);
    const after = (await h.request('GET', '/_control/lists/leads')).json.records as Lead[];
    expect(after.find((l) => l.id === other.id)!.name).toBe(other.name);
    expect(after.find((l) => l.id === own)!.name).not.toBe('Mine');
    expect((await patch(`/api/v4/leads/${own}`, { name: 'Mine' })).status).toBe(200);
  });

  it('restricts every list: his contacts, companies and customers are the ones he is responsible for (docs/emulator.md)', async () => {
    const token = await tokenOf(restrictedId);
    for (const list of ['contacts', 'companies', 'customers']) {
      const truth = (await h.request('GET', `/_control/lists/${list}`)).json.records as { id: number; responsible_user_id: number }[];
      const his = truth.filter((r) => r.responsible_user_id === restrictedId).map((r) => r.id);
      expect(his.length, list).toBeGreaterThan(0);
      expect(his.length, list).toBeLessThan(truth.length);
      const seen = (await get(token, `/api/v4/${list}?limit=250`)).json._embedded[list].map((r: { id: number }) => r.id);
      expect(new Set(seen), list).toEqual(new Set(his));
    }
  });

  it('mints a long-lived token that carries his rights, and names its user', async () => {
    const { now } = (await h.request('GET', '/_control/clock')).json;
    const made = await h.postJson('/_control/long-lived-tokens', { expires_at: now + 30 * 86_400, user_id: restrictedId });
    expect(made.status).toBe(201);
    expect(made.json.user_id).toBe(restrictedId);
    expect(new Set((await allLeads(made.json.long_lived_token, 250)).map((l) => l.id))).toEqual(mine);
  });

  it('refuses a consent or a token for a user the account does not have, or in an account he is no user of (400)', async () => {
    const accounts = (await h.request('GET', '/_control/accounts')).json.accounts as { id: number }[];
    // The first account is the developer account, his own; the others are the administrator's alone.
    const other = accounts[1]!;
    for (const body of [{ user_id: 1 }, { user_id: 'x' }, { user_id: restrictedId, account_id: other.id }]) {
      const r = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', ...body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('the lists.rights rules', () => {
  const byId = new Map(allRules().map((r) => [r.id, r]));

  /** The embedded emulator seen as a staging account: no control API; the administrator's and the user's tokens as settings. */
  async function withoutControl(target: EmbeddedTarget): Promise<TargetConfig> {
    const { config, emulator } = target;
    const call = async (method: string, path: string, body?: unknown) => (await fetch(`${emulator.url}/_control${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) })).json() as Promise<any>;
    const { now } = await call('GET', '/clock');
    const { users } = await call('GET', '/users');
    const restricted = users.find((u: { deals: string }) => u.deals === 'own');
    const admin = await call('POST', '/long-lived-tokens', { expires_at: now + 30 * 86_400 });
    const his = await call('POST', '/long-lived-tokens', { expires_at: now + 30 * 86_400, user_id: restricted.id });
    const { controlUrl: _dropped, ...rest } = config;
    return {
      ...rest,
      credentials: { ...config.credentials, longLivedToken: admin.long_lived_token, restrictedUser: { token: his.long_lived_token, userId: restricted.id } },
      capabilities: config.capabilities.filter((c) => c !== 'control'),
    };
  }

  async function run(options: { faults?: string[]; variations?: string[]; control: boolean }): Promise<Map<string, RuleResult>> {
    const target = await startEmbeddedTarget({ thread: 'main', seed: 7, sandbox: false, faults: options.faults ?? [], variations: options.variations ?? [] });
    try {
      const config = options.control ? target.config : await withoutControl(target);
      const report = await executeRun({ target: config, rules: RULE_IDS.map((id) => byId.get(id)!), seed: 5, runs: 5 });
      return new Map(report.results.map((r) => [r.id, r]));
    } finally {
      await target.close();
    }
  }
  const statuses = (results: Map<string, RuleResult>) => RULE_IDS.map((id) => `${id}: ${results.get(id)!.status}`);

  it('pass a healthy emulator', async () => {
    const results = await run({ control: true });
    expect(statuses(results), [...results.values()].map((r) => r.detail).join('\n')).toEqual(RULE_IDS.map((id) => `${id}: passed`));
  });

  it('pass a healthy emulator without a control API, but the refresh rule, which names CONTROL_URL', async () => {
    const results = await run({ control: false });
    expect(statuses(results)).toEqual(RULE_IDS.map((id) => `${id}: ${id === REFRESH_RULE ? 'skipped' : 'passed'}`));
    expect(results.get(REFRESH_RULE)!.detail).toMatch(/^needs restricted-refresh-token: set CONTROL_URL/);
  });

  it('pass an emulator that refuses with 403 what is beyond his rights (variation rights-beyond-refused-403)', async () => {
    const results = await run({ control: true, variations: ['rights-beyond-refused-403'] });
    expect(statuses(results)).toEqual(RULE_IDS.map((id) => `${id}: passed`));
    const refused = [...results.values()].flatMap((r) => r.findings ?? []).filter((f) => f.detail.startsWith('403'));
    expect(refused.map((f) => f.check)).toEqual(expect.arrayContaining([expect.stringMatching(/^another user's records by id \(contacts\)/), expect.stringMatching(/^filter\[responsible_user_id\] of other users \(customers\)/)]));
  });

  it('fail an emulator that lists every deal to him, without a control API too', async () => {
    const results = await run({ control: false, faults: ['rights-restricted-user-sees-every-lead'] });
    expect(statuses(results)).toEqual(RULE_IDS.map((id) => `${id}: ${id === REFRESH_RULE ? 'skipped' : 'failed'}`));
  });

  it('fail an emulator that applies his rights to the first page only, without a control API too', async () => {
    const results = await run({ control: false, faults: ['rights-first-page-only'] });
    expect(results.get('lists.rights.own-leads-only')!.status).toBe('failed');
  });
});
