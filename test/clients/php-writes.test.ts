/**
 * The official PHP client's writes, replayed: `fixtures/php-writes.json` holds the requests it sends for a
 * read-modify-write of a lead with date values (sent back as RFC 3339 strings), a PATCH naming one custom field, the
 * clearing of one field with `values: null`, and a contact made by first and last name (how the bodies were derived
 * is in the fixture's `about`). Each is sent to the emulator started with the fixture's seed, in order, and the
 * answers are checked for what the client reads (`id`, `updated_at`, and `request_id` equal, as a string, to the one
 * it sent: `getBy` compares with ===), and the records for what the service keeps.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CfValue } from '../../src/emulator/lists/data.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { valuesById } from './records.js';
import { Control } from './https-emulator.js';

interface Recorded { readonly method: 'GET' | 'POST' | 'PATCH'; readonly path: string; readonly body?: unknown }
interface Fixture { readonly seed: number; readonly calls: readonly { readonly what: string; readonly requests: readonly Recorded[] }[] }

const fixture = JSON.parse(readFileSync(new URL('./fixtures/php-writes.json', import.meta.url), 'utf8')) as Fixture;
const LEAD = 20088792;

let emulator: RunningEmulator;
let token: string;
beforeAll(async () => {
  emulator = await startEmulator({ seed: fixture.seed });
  const env = emulator.env();
  const code = await new Control(emulator.url).code(env.CLIENT_ID!);
  // The PHP client's OAuth library sends the exchange form-encoded.
  const r = await fetch(`${emulator.url}/oauth2/access_token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: env.CLIENT_ID!, client_secret: env.CLIENT_SECRET!, grant_type: 'authorization_code', code, redirect_uri: env.REDIRECT_URI! }),
  });
  token = ((await r.json()) as { access_token: string }).access_token;
});
afterAll(() => emulator?.close());

async function replay(req: Recorded, vars: Record<string, string | number> = {}): Promise<{ status: number; json: any }> {
  const path = req.path.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k]));
  const r = await fetch(`${emulator.url}${path}`, {
    method: req.method,
    headers: { authorization: `Bearer ${token}`, ...(req.body !== undefined && { 'content-type': 'application/json' }) },
    ...(req.body !== undefined && { body: JSON.stringify(req.body) }),
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : undefined };
}

const call = (n: number) => fixture.calls[n]!.requests;
const read = async (): Promise<{ name: string; custom_fields_values: CfValue[] | null }> => (await replay({ method: 'GET', path: `/api/v4/leads/${LEAD}` })).json;

describe('the official PHP client\'s writes, replayed', () => {
  let before: { name: string; custom_fields_values: CfValue[] | null };

  it('read-modify-write of a lead with date values: taken, and the values read back as they were', async () => {
    const [get, patch] = call(0);
    const got = await replay(get!);
    expect(got.status).toBe(200);
    expect(got.json.id).toBe(LEAD);
    before = got.json;
    const answer = await replay(patch!);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json).toMatchObject({ id: LEAD, updated_at: expect.any(Number) });
    const after = await read();
    expect(after.name).toBe('Renamed by the PHP client');
    // The dates went out as RFC 3339 strings at +03:00 and come back as the seconds that were read.
    expect(after.custom_fields_values).toEqual(before.custom_fields_values);
  });

  it('a PATCH naming one custom field: that field set, every other kept', async () => {
    const answer = await replay(call(1)[0]!);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json).toMatchObject({ id: LEAD, updated_at: expect.any(Number) });
    expect(valuesById(await read())).toEqual({ ...valuesById(before), 657048: ['set by the PHP client'] });
  });

  it('values: null clears that field alone; the batch answer names the element by the request_id sent, a string', async () => {
    const answer = await replay(call(2)[0]!);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    const [element] = answer.json._embedded.leads;
    expect(element).toMatchObject({ id: LEAD, updated_at: expect.any(Number), request_id: '0' });
    const { 657124: cleared, ...kept }: Record<number, unknown[]> = { ...valuesById(before), 657048: ['set by the PHP client'] };
    expect(cleared).toEqual([false]);
    expect(valuesById(await read())).toEqual(kept);
  });

  it('a contact by first and last name: made, named by them, and both read back', async () => {
    const [post, get] = call(3);
    const made = await replay(post!);
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    const [element] = made.json._embedded.contacts;
    expect(element).toMatchObject({ id: expect.any(Number), request_id: '0' });
    const contact = await replay(get!, { id: element.id });
    expect(contact.json).toMatchObject({ id: element.id, name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' });
  });
});
