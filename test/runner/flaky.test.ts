import { describe, expect, it } from 'vitest';
import { rule } from '../../src/model/define.js';
import { fail, outcomeOf, pass } from '../../src/model/outcome.js';
import { defineSpec } from '../../src/model/rule.js';
import { Masker } from '../../src/secrets/mask.js';
import { runSuite } from '../../src/runner/run-suite.js';
import type { TargetConfig } from '../../src/model/target.js';
import { HttpClient } from '../../src/targets/http.js';

const target: TargetConfig = { kind: 'remote', baseUrl: 'http://127.0.0.1:9', authUrl: 'http://127.0.0.1:9', chatUrl: 'http://127.0.0.1:9', credentials: { clientId: 'c', clientSecret: 's', redirectUri: 'https://r' }, capabilities: [] };

describe('re-run of failures', () => {
  it('marks a failure that passes on an immediate re-run as flaky, and keeps it failed', async () => {
    let calls = 0;
    const [wobbly, steady] = defineSpec({ section: '4.1', title: 'flaky', level: 'must', rules: [
      rule({ id: 'x.wobbly', title: 'fails once then passes' }, async () => outcomeOf([++calls === 1 ? fail('c', 'first time') : pass('c')])),
      rule({ id: 'x.steady', title: 'always fails' }, async () => outcomeOf([fail('c', 'always')])),
    ] }).rules;
    const client = new HttpClient();
    const results = await runSuite(
      { target, client, control: undefined, masker: new Masker(), seed: 1, runs: 1, runId: 'r' },
      { rules: [wobbly!, steady!], skip: () => undefined, concurrency: 1 },
    );
    await client.close();
    expect(results[0]).toMatchObject({ id: 'x.wobbly', status: 'failed', flaky: true });
    expect(results[0]!.detail).toContain('flaky');
    expect(results[1]).toMatchObject({ id: 'x.steady', status: 'failed' });
    expect(results[1]!.flaky).toBeUndefined();
  });
});
