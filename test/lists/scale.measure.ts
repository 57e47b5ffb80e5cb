/**
 * Measures, does not assert (run: `npx tsx test/lists/scale.measure.ts [records] [runs]`):
 * 1. the wall time and request count of every §4.2 rule over a data set reseeded with N records per list
 *    (default 10,000), through the control API, as a full run would see it;
 * 2. the emulator alone: a filtered list request over 1,000 and over 10,000 / 100,000 leads, sequential requests per
 *    second, to show filtering scales with the page, not with the list.
 */
import { request } from 'undici';
import { allRules } from '../../specs/index.js';
import { executeRun } from '../../src/runner/execute.js';
import { startEmbeddedTarget } from '../../src/targets/embedded.js';

const records = Number(process.argv[2] ?? 10_000);
const runs = Number(process.argv[3] ?? 100);

const target = await startEmbeddedTarget({ seed: 1 });
const url = target.emulator.url;
const post = async (path: string, body: unknown) => {
  const res = await request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.body.json() as Promise<any>;
};
const reseed = async (count: number, lists?: string[]) => {
  const t0 = performance.now();
  await post('/_control/lists/reseed', { count, include_records: false, ...(lists ? { lists } : {}) });
  return Math.round(performance.now() - t0);
};

try {
  console.log(`reseed ${records} records per list: ${await reseed(records)} ms`);
  const rules = allRules().filter((r) => r.section === '4.2');
  const t0 = performance.now();
  const report = await executeRun({ target: target.config, rules, seed: 1, runs });
  const wall = Math.round(performance.now() - t0);
  console.log(`§4.2 rules over ${records} records per list, ${runs} cases per property: ${wall} ms wall, ${report.request_count} requests, ${JSON.stringify(report.summary)}`);
  for (const r of report.results) console.log(`  ${r.status.padEnd(13)} ${r.id.padEnd(42)} ${String(r.duration_ms).padStart(6)} ms ${String(r.request_count).padStart(5)} requests`);

  // The emulator alone.
  const { code } = await post('/_control/consent', { client_id: target.config.credentials.clientId, decision: 'allow' });
  const { access_token: token } = await post('/oauth2/access_token', { client_id: target.config.credentials.clientId, client_secret: target.config.credentials.clientSecret, grant_type: 'authorization_code', code, redirect_uri: target.config.credentials.redirectUri });
  const rate = async (query: string, n = 2000): Promise<number> => {
    const t1 = performance.now();
    for (let i = 0; i < n; i += 1) {
      const res = await request(`${url}/api/v4/leads?${query}`, { headers: { authorization: `Bearer ${token}` } });
      await res.body.text();
    }
    return Math.round(n / ((performance.now() - t1) / 1000));
  };
  for (const count of [1_000, 10_000, 100_000]) {
    await reseed(count, ['leads']);
    const users = (await (await request(`${url}/_control/lists`)).body.json() as any).catalog.users;
    const q = `filter[responsible_user_id][0]=${users[1].id}&filter[created_at][from]=1600000000&limit=50`;
    console.log(`emulator, ${count} leads: filtered list ${await rate(q)} req/s, last page of it ${await rate(`${q}&page=3`, 500)} req/s, unfiltered ${await rate('limit=50')} req/s`);
  }
} finally {
  await target.close();
}
