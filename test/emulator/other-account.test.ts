import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

describe('control API: another account\'s list records', () => {
  let e: RunningEmulator;
  beforeAll(async () => { e = await startEmulator(); });
  afterAll(() => e?.close());

  it('answers another account\'s records under ?account=other, apart from this account\'s', async () => {
    const own = await (await fetch(`${e.url}/_control/lists/leads`)).json() as { records: { id: number }[] };
    const other = await (await fetch(`${e.url}/_control/lists/leads?account=other`)).json() as { account?: string; records: { id: number }[] };
    expect(other.account).toBe('other');
    expect(other.records.length).toBe(40);
    const ownIds = new Set(own.records.map((r) => r.id));
    expect(other.records.some((r) => !ownIds.has(r.id))).toBe(true);
  });
});

describe('control API: a record with a given name', () => {
  let e: RunningEmulator;
  beforeAll(async () => { e = await startEmulator(); });
  afterAll(() => e?.close());

  it('adds a lead the ground truth shows at once, and refuses a name that is not a string', async () => {
    const made = await fetch(`${e.url}/_control/lists/leads/records`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Сделка 😀' }) });
    expect(made.status).toBe(201);
    const { id } = await made.json() as { id: number };
    const truth = await (await fetch(`${e.url}/_control/lists/leads`)).json() as { records: { id: number; name: string }[] };
    expect(truth.records.find((r) => r.id === id)?.name).toBe('Сделка 😀');
    const bad = await fetch(`${e.url}/_control/lists/leads/records`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 5 }) });
    expect(bad.status).toBe(400);
  });
});
