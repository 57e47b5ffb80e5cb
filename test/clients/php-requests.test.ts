/**
 * The official PHP client's requests, recorded and replayed (php-replay.ts, `fixtures/php-requests.json`): the code
 * exchange, a filtered walk over pages by the next links, a read-modify-write of a lead holding a date and a date-time value (written back as RFC 3339 strings), a
 * PATCH naming one custom field, the clearing of one field with `values: null`, a date-time set in PHP's time zone, a
 * contact made by first and last name, and a call with a token the sandbox clock has expired (401, the refresh, the
 * call again). Each answer is checked for what the client reads from it (what it read at the recording is in
 * `client_read`), and the records for what the service keeps. The account read is replayed in php-account.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CfValue } from '../../src/emulator/lists/data.js';
import { recordedCall as call, recording, RECORDING_TEXT, startReplayer, type Replayer } from './php-replay.js';
import { valuesById } from './records.js';

const { lead: LEAD, set_field: SET_FIELD, cleared_field: CLEARED_FIELD, date_field: DATE_FIELD } = recording.ids;

let replayer: Replayer;
let secrets: Replayer['secrets'];
let replay: Replayer['replay'];
beforeAll(async () => {
  replayer = await startReplayer();
  ({ secrets, replay } = replayer);
});
afterAll(() => replayer?.close());

const read = (): Promise<{ name: string; custom_fields_values: CfValue[] | null }> => replayer.get(`/api/v4/leads/${LEAD}`);
const seconds = (rfc3339: string) => Date.parse(rfc3339) / 1000;

describe(`the official PHP client's requests (${recording.client}), recorded and replayed`, () => {
  let before: { custom_fields_values: CfValue[] | null };

  it('every request but the expired token\'s was answered with a success the client parsed; the recording holds no secret', () => {
    const failed = recording.calls.flatMap((c) => c.requests.filter((r) => r.status >= 300).map((r) => `${r.status} ${c.what}`));
    expect(failed).toEqual([`401 ${call(/clock moved/).what}`]);
    // The recording's secrets were its sandbox's, made at random: what is checked is that nothing shaped like one (the
    // sandbox's secrets, codes and tokens are 24 characters or more of the base64url alphabet; JWTs start eyJ) is left.
    const shaped = RECORDING_TEXT.match(/eyJ[\w-]+|(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Z])(?=[\w-]*[a-z])[\w-]{24,}/g) ?? [];
    expect(shaped).toEqual([]);
  });

  it('the code exchange, form-encoded: answered with what league/oauth2-client\'s AccessToken reads', async () => {
    const [exchange] = call(/getAccessTokenByCode/).requests;
    const answer = await replay(exchange!);
    expect(answer).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String), refresh_token: expect.any(String), expires_in: expect.any(Number) });
    secrets.access_token = answer.access_token;
    secrets.refresh_token = answer.refresh_token;
  });

  it('a filtered walk over pages: each page the leads the client read, each next link one it follows on the account\'s address', async () => {
    const walk = call(/nextPage/);
    const pages: number[][] = walk.client_read.pages;
    expect(pages.length).toBeGreaterThan(2);
    expect(walk.requests).toHaveLength(pages.length);
    // nextPage() cuts the account's address (https://<subdomain>.sandbox.localhost:<port>/) off the link's front and
    // sends its query again through parse_str: a link on another host or path would be called wrongly.
    const account = `${replayer.account}/`;
    const params = (query: string) => [...new URLSearchParams(query)].sort();
    for (const [n, req] of walk.requests.entries()) {
      const answer = await replay(req);
      expect(answer._embedded.leads.map((l: { id: number }) => l.id), `page ${n + 1}`).toEqual(pages[n]);
      const next = walk.requests[n + 1];
      if (!next) { expect(answer._links.next).toBeUndefined(); continue; }
      const href: string = answer._links.next.href;
      expect(href.startsWith(account), href).toBe(true);
      const link = new URL(href);
      expect([link.pathname, params(link.search)]).toEqual([next.path, params(next.query)]);
    }
    const ids = pages.flat();
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
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

  it('a token the sandbox clock expired: 401, the refresh grant form-encoded answered with new tokens, the call sent again with them', async () => {
    const expired = call(/clock moved/);
    const [first, refresh, again] = expired.requests;
    await replayer.sandbox.control('POST', '/clock', { advance_seconds: expired.before!.clock_advanced_seconds! });
    // AmoCRMApiRequest refreshes on the 401 alone: the replay checks the status (recorded 401), not the body.
    await replay(first!);
    expect(refresh!.body).toContain('grant_type=refresh_token');
    const tokens = await replay(refresh!);
    expect(tokens).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String), refresh_token: expect.any(String), expires_in: expect.any(Number) });
    expect(tokens.access_token).not.toBe(secrets.access_token);
    secrets.access_token_2 = tokens.access_token;
    secrets.refresh_token_2 = tokens.refresh_token;
    expect(again!.headers.Authorization).toBe('Bearer {{access_token_2}}');
    expect((await replay(again!)).id).toBe(expired.client_read.id);
  });
});
