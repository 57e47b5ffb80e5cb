/**
 * The official PHP client's writes, recorded and replayed. `fixtures/php-writes.json` holds the requests
 * amocrm/amocrm-api-php sent, over https to the account's own host name, for the calls of issue 30: the code exchange,
 * a read-modify-write of a lead holding a date and a date-time value (written back as RFC 3339 strings), a PATCH naming
 * one custom field, the clearing of one field with `values: null`, a date-time set in PHP's time zone, and a contact made
 * by first and last name (`npm run record:php` re-records them: docs/sandbox.md). Each request is sent again, as
 * recorded but for its secrets, to an emulator started with the fixture's seed over https at the same host name; the
 * answers are checked for what the client reads from them (what it read at the recording is in `client_read`), and the
 * records for what the service keeps. No php is needed here.
 */
import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CfValue } from '../../src/emulator/lists/data.js';
import { startHttpsEmulator, type HttpsEmulator } from './https-emulator.js';
import { valuesById } from './records.js';

interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  readonly status: number;
}
interface RecordedCall { readonly what: string; readonly requests: readonly RecordedRequest[]; readonly client_read: Record<string, any> }
interface Fixture {
  readonly client: string;
  readonly seed: number;
  readonly ids: { readonly lead: number; readonly set_field: number; readonly cleared_field: number; readonly date_field: number };
  readonly calls: readonly RecordedCall[];
}

const FIXTURE_TEXT = readFileSync(new URL('./fixtures/php-writes.json', import.meta.url), 'utf8');
const fixture = JSON.parse(FIXTURE_TEXT) as Fixture;
const { lead: LEAD, set_field: SET_FIELD, cleared_field: CLEARED_FIELD, date_field: DATE_FIELD } = fixture.ids;
const call = (what: RegExp): RecordedCall => {
  const found = fixture.calls.find((c) => what.test(c.what));
  if (!found) throw new Error(`the fixture records no call matching ${what}`);
  return found;
};

let https: HttpsEmulator;
let agent: Agent;
/** What stands for a secret in the fixture ({{name}}), as this emulator has it. */
const secrets: Record<string, string> = {};
beforeAll(async () => {
  https = await startHttpsEmulator(fixture.seed);
  // The client reached the account at its own host name, resolved by curl's CURLOPT_RESOLVE; here by the lookup.
  agent = new Agent({ connect: { ca: https.ca, lookup: https.lookup } });
  const env = https.emulator.env();
  secrets.client_id = env.CLIENT_ID!;
  secrets.client_secret = env.CLIENT_SECRET!;
  secrets.code = await https.control.code(env.CLIENT_ID!);
});
afterAll(async () => { await agent?.close(); await https?.close(); });

/** Sends one recorded request as recorded, its secrets filled in (form-encoded in a form body), its path rewritten by `path`. */
async function replay(req: RecordedRequest, path: (p: string) => string = (p) => p): Promise<any> {
  const form = /x-www-form-urlencoded/i.test(Object.entries(req.headers).find(([k]) => /^content-type$/i.test(k))?.[1] ?? '');
  const fill = (text: string, encode: (s: string) => string) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = secrets[name];
    if (value === undefined) throw new Error(`no value for {{${name}}}`);
    return encode(value);
  });
  // Content-Length is the recorded body's: the filled-in one has its own, which fetch sets.
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !/^content-length$/i.test(k)).map(([k, v]) => [k, fill(v, (s) => s)]));
  const url = `https://${https.accountHost}:${https.port}${path(req.path)}${req.query ? `?${req.query}` : ''}`;
  const res = await undiciFetch(url, {
    method: req.method, headers, dispatcher: agent,
    ...(req.body !== null && { body: fill(req.body, form ? encodeURIComponent : (s) => s) }),
  });
  const text = await res.text();
  // The recording's status is the one the client accepted: a success it parsed.
  expect(res.status, `${req.method} ${req.path}: ${text}`).toBe(req.status);
  return text ? JSON.parse(text) : undefined;
}

const read = async (): Promise<{ name: string; custom_fields_values: CfValue[] | null }> => {
  const res = await https.fetch(`${https.emulator.url}/api/v4/leads/${LEAD}`, { headers: { authorization: `Bearer ${secrets.access_token}` } });
  return res.json() as Promise<{ name: string; custom_fields_values: CfValue[] | null }>;
};
const seconds = (rfc3339: string) => Date.parse(rfc3339) / 1000;

describe(`the official PHP client's writes (${fixture.client}), recorded and replayed`, () => {
  let before: { custom_fields_values: CfValue[] | null };

  it('every request was answered with a success the client parsed, and the fixture holds no secret of the emulator', () => {
    expect(fixture.calls.flatMap((c) => c.requests.map((r) => r.status)).every((s) => s >= 200 && s < 300)).toBe(true);
    for (const [name, value] of Object.entries(https.emulator.env())) {
      if (/SECRET|TOKEN|PASSWORD/.test(name) && value.length >= 8) expect(FIXTURE_TEXT, name).not.toContain(value);
    }
  });

  it('the code exchange, form-encoded: answered with what league/oauth2-client\'s AccessToken reads', async () => {
    const [exchange] = call(/getAccessTokenByCode/).requests;
    const answer = await replay(exchange!);
    expect(answer).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String), refresh_token: expect.any(String), expires_in: expect.any(Number) });
    secrets.access_token = answer.access_token;
    secrets.refresh_token = answer.refresh_token;
  });

  it('read-modify-write of a lead with a date and a date-time value: the dates read as the client read them, written back as RFC 3339, kept', async () => {
    const rmw = call(/read-modify-write/);
    const [get, patch] = rmw.requests;
    const got = await replay(get!);
    expect(got.id).toBe(LEAD);
    // CustomFieldValuesModelFactory picks a model by field_type; date values go through Carbon::createFromTimestamp.
    for (const field of got.custom_fields_values as CfValue[]) {
      expect(field).toMatchObject({ field_id: expect.any(Number), field_type: expect.any(String), values: expect.any(Array) });
    }
    const dates: Record<string, string> = rmw.client_read.dates;
    expect(Object.keys(dates).length).toBeGreaterThanOrEqual(2);
    for (const [fieldId, rfc3339] of Object.entries(dates)) {
      expect(valuesById(got)[Number(fieldId)], `field ${fieldId}`).toEqual([seconds(rfc3339)]);
      expect(patch!.body).toContain(`{"field_id":${fieldId},"field_code":null,"values":[{"value":"${rfc3339}"}]}`);
    }
    before = got;
    const answer = await replay(patch!);
    expect(answer).toMatchObject({ id: LEAD, updated_at: expect.any(Number) });
    const after = await read();
    expect(after.name).toBe('Renamed by the PHP client');
    expect(after.custom_fields_values).toEqual(before.custom_fields_values);
  });

  it('a PATCH naming one custom field: that field set, every other kept', async () => {
    const answer = await replay(call(/names one custom field/).requests[0]!);
    expect(answer).toMatchObject({ id: LEAD, updated_at: expect.any(Number) });
    expect(valuesById(await read())).toEqual({ ...valuesById(before), [SET_FIELD]: ['set by the PHP client'] });
  });

  it('values: null clears that field alone; the batch answer names the element by the request_id sent, a string', async () => {
    const [patch] = call(/NullCustomFieldValueCollection/).requests;
    expect(patch!.body).toContain(`{"field_id":${CLEARED_FIELD},"field_code":null,"values":null}`);
    const answer = await replay(patch!);
    // LeadsCollection::getBy('requestId', ...) compares with ===: "0", not 0.
    expect(answer._embedded.leads).toEqual([expect.objectContaining({ id: LEAD, updated_at: expect.any(Number), request_id: '0' })]);
    const { [CLEARED_FIELD]: cleared, ...kept } = { ...valuesById(before), [SET_FIELD]: ['set by the PHP client'] };
    expect(cleared).toBeDefined();
    expect(valuesById(await read())).toEqual(kept);
  });

  it('a date-time set in PHP\'s time zone (RFC 3339 with its offset): kept as that instant, read back in seconds', async () => {
    const setDate = call(/date-time field/);
    const [patch, get] = setDate.requests;
    const sent = /"value":"([^"]+)"/.exec(patch!.body!)![1]!;
    expect(sent).toMatch(/[+-]\d\d:\d\d$/);
    expect(await replay(patch!)).toMatchObject({ id: LEAD, updated_at: expect.any(Number) });
    const got = await replay(get!);
    expect(valuesById(got)[DATE_FIELD]).toEqual([seconds(sent)]);
    expect(seconds(sent)).toBe(setDate.client_read.read_back);
  });

  it('a contact by first and last name: made, named by them, and both read back', async () => {
    const contact = call(/ContactModel/);
    const [post, get] = contact.requests;
    const made = await replay(post!);
    expect(made._embedded.contacts).toEqual([expect.objectContaining({ id: expect.any(Number), request_id: '0' })]);
    const { id } = made._embedded.contacts[0];
    const recordedId = String(contact.client_read.id);
    const answer = await replay(get!, (p) => p.replace(new RegExp(`/${recordedId}$`), `/${id}`));
    const { name, first_name, last_name } = contact.client_read;
    expect(answer).toMatchObject({ id, name, first_name, last_name });
    expect(name).toBe('Ada Lovelace');
  });
});
