/**
 * The §4.2 rules as a whole: the metamorphic rules alone, on a target without a control API, catch "a filter
 * ignored"; every row of §4.2's tables is covered by a rule; the generated traceability table says so.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { METAMORPHIC_RULE_IDS } from '../../specs/4.2/meaning.js';
import { filterTraceability } from '../../src/docs/traceability-filters.js';
import type { RuleResult } from '../../src/model/result.js';
import { executeRun } from '../../src/runner/execute.js';
import type { TargetConfig } from '../../src/model/target.js';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../src/targets/embedded.js';

const byId = new Map(allRules().map((r) => [r.id, r]));

/** The embedded emulator seen as a remote staging account: no control API, a long-lived token instead. */
async function withoutControl(target: EmbeddedTarget): Promise<TargetConfig> {
  const { config, emulator } = target;
  const env = emulator.env();
  const post = async (path: string, body: unknown) => (await fetch(`${emulator.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<any>;
  const { code } = await post('/_control/consent', { client_id: env.CLIENT_ID, decision: 'allow' });
  const { access_token } = await post('/oauth2/access_token', { client_id: env.CLIENT_ID, client_secret: env.CLIENT_SECRET, grant_type: 'authorization_code', code, redirect_uri: env.REDIRECT_URI });
  const { controlUrl: _dropped, ...rest } = config;
  return { ...rest, credentials: { ...config.credentials, longLivedToken: access_token }, capabilities: config.capabilities.filter((c) => c !== 'control') };
}

async function runMetamorphic(faults: string[]): Promise<Map<string, RuleResult>> {
  const target = await startEmbeddedTarget({ faults, seed: 11 });
  try {
    const config = await withoutControl(target);
    const report = await executeRun({ target: config, rules: METAMORPHIC_RULE_IDS.map((id) => byId.get(id)!), seed: 5, runs: 10 });
    return new Map(report.results.map((r) => [r.id, r]));
  } finally {
    await target.close();
  }
}

describe('metamorphic rules without a control API', () => {
  let healthy: Map<string, RuleResult>;
  let faulty: Map<string, RuleResult>;
  beforeAll(async () => { [healthy, faulty] = await Promise.all([runMetamorphic([]), runMetamorphic(['ignore-responsible-user-filter'])]); });

  it('pass on a healthy emulator', () => {
    expect([...healthy.values()].filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.status} ${r.detail}`)).toEqual([]);
    expect([...healthy.values()].every((r) => !r.requires.includes('control'))).toBe(true);
  });

  it('catch "a filter ignored" (filter[responsible_user_id]) on their own', () => {
    const failed = [...faulty.values()].filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toEqual(expect.arrayContaining(['lists.filter.meta.consistent', 'lists.filter.meta.union']));
  });
});

describe('paid filter feature off', () => {
  it('skips the filter-meaning rules with the reason', async () => {
    const target = await startEmbeddedTarget({ seed: 12 });
    try {
      await fetch(`${target.emulator.url}/_control/lists/filter-feature`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"enabled":false}' });
      const ids = ['lists.filter.meta.consistent', 'lists.filter.oracle.common', 'lists.filter.shapes'];
      const report = await executeRun({ target: target.config, rules: ids.map((id) => byId.get(id)!), seed: 1, runs: 2 });
      for (const r of report.results) {
        expect(r.status, r.id).toBe('skipped');
        expect(r.detail).toMatch(/paid filter feature is off/);
      }
    } finally {
      await target.close();
    }
  });
});

describe('§4.2 traceability', () => {
  const rows = filterTraceability();

  it('reads every row of the four tables', () => {
    expect(rows.length).toBe(28);
  });

  it('maps every row to at least one rule', () => {
    expect(rows.filter((r) => r.rules.length === 0).map((r) => r.row.key)).toEqual([]);
  });

  it('maps every row to at least one must rule', () => {
    const noMust = rows.filter((r) => !r.rules.some((x) => x.level === 'must')).map((r) => r.row.key);
    expect(noMust).toEqual([]);
  });

  it('names only keys that exist', () => {
    const keys = new Set(rows.map((r) => r.row.key));
    const unknown = allRules().flatMap((r) => (r.covers ?? []).filter((k) => k.startsWith('4.2/') && !keys.has(k)).map((k) => `${r.id}: ${k}`));
    expect(unknown).toEqual([]);
  });
});

