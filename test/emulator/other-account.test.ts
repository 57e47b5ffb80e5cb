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
