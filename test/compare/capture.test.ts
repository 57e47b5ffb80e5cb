/**
 * What a comparison keeps of a run (src/compare/capture.ts): each rule's own exchanges of its first attempt, the one
 * its verdict stands on; a run resource's set-up is the run's, shared by the rules that ask for it, whichever asked
 * first, so it is no rule's exchange on either side.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { captureRun } from '../../src/compare/capture.js';
import { rule } from '../../src/model/define.js';
import { fail, outcomeOf, pass } from '../../src/model/outcome.js';
import { defineSpec } from '../../src/model/rule.js';
import type { TargetConfig } from '../../src/model/target.js';

describe('a captured run', () => {
  it('keeps each rule\'s own exchanges of its first attempt, and no resource set-up', async () => {
    const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(req.url));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const target: TargetConfig = { kind: 'remote', baseUrl: base, authUrl: base, chatUrl: base, credentials: { clientId: 'c', clientSecret: 's', redirectUri: 'https://r' }, capabilities: [] };
    let attempts = 0;
    const { rules } = defineSpec({ section: '4.1', title: 'capture', level: 'must', rules: ['a', 'b'].map((id) => rule({ id: `x.${id}`, title: id }, async (t) => {
      await t.resource('set-up', async () => {
        await t.send({ method: 'GET', url: `${base}/set-up` });
        return { close: async () => {} };
      });
      const own = await t.send({ method: 'GET', url: `${base}/${id}` });
      // x.b fails its first attempt only: the flaky check's re-run sends again, and is not kept.
      return outcomeOf([id === 'b' && ++attempts === 1 ? fail('c', own.text) : pass('c')]);
    })) });
    try {
      const capture = await captureRun({ target, rules, seed: 1, runs: 1 });
      expect(capture.report.results.map((r) => [r.id, r.status, r.flaky])).toEqual([['x.a', 'passed', undefined], ['x.b', 'failed', true]]);
      expect(Object.fromEntries([...capture.exchanges].map(([id, list]) => [id, list.map((x) => x.response?.text)]))).toEqual({ 'x.a': ['/a'], 'x.b': ['/b'] });
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
