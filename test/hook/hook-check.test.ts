/**
 * `conformance hook-check <url>` end to end: a receiver built on verifyDisconnectHook passes (exit 0); receivers that
 * skip a check fail (exit 1) and the output names the case; an unreachable receiver exits 3. Each writes report.json
 * and junit.xml as `run` does.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDisconnectHook, type HookVerification } from '../../src/hook/index.js';
import type { Report } from '../../src/model/result.js';
import { shapeProblem } from '../../src/report/json.js';
import { conformance } from '../cli/helpers.js';

const CLIENT_ID = '0b6f4c1e-2d3a-4f5b-8c7d-9e0f1a2b3c4d';
const CLIENT_SECRET = 'Qm7Tz2Lr9Xc4Vb8Nk1Hs6Dg3Jf5Wp0AeYuIoPlKjHgFdSaZxCvBnMqWeRtYuIo';
const env = { CLIENT_ID, CLIENT_SECRET };

type Judge = (query: URLSearchParams) => boolean;

async function receiver(judge: Judge): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    res.writeHead(judge(query) ? 200 : 403).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/disconnect?existing=1` };
}

const verified = (q: URLSearchParams): HookVerification => {
  const copy = new URLSearchParams(q);
  copy.delete('existing');
  return verifyDisconnectHook(copy, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
};

describe('conformance hook-check', () => {
  const servers: Server[] = [];
  const start = async (judge: Judge) => {
    const r = await receiver(judge);
    servers.push(r.server);
    return r.url;
  };
  type Result = Awaited<ReturnType<typeof conformance>>;
  let r: Record<'good' | 'acceptsAll' | 'noUuidCheck' | 'refusesAll' | 'noSecret' | 'noUrl' | 'closed', Result>;
  const dir = mkdtempSync(join(tmpdir(), 'hook-check-'));

  // The command runs in child processes, all at once: each one pays the start-up of the command line.
  beforeAll(async () => {
    const good = await start((q) => verified(q).ok);
    const acceptsAll = await start(() => true);
    const noUuidCheck = await start((q) => { const v = verified(q); return v.ok || (!v.ok && v.reason === 'foreign-client-uuid'); });
    const refusesAll = await start(() => false);
    // Each in a folder of its own (the reports go into --out), one with the JUnit file named apart.
    const out = (name: string) => ['--out', join(dir, name)];
    const runs = {
      good: conformance(['hook-check', good, ...out('good')], { env }),
      acceptsAll: conformance(['hook-check', acceptsAll, ...out('acceptsAll'), '--junit', join(dir, 'ci', 'hooks.xml')], { env }),
      noUuidCheck: conformance(['hook-check', noUuidCheck, ...out('noUuidCheck')], { env }),
      refusesAll: conformance(['hook-check', refusesAll, ...out('refusesAll')], { env }),
      noSecret: conformance(['hook-check', good, ...out('noSecret')], { env: { CLIENT_ID } }),
      noUrl: conformance(['hook-check'], { env }),
      closed: conformance(['hook-check', 'http://127.0.0.1:9/none', ...out('closed')], { env }),
    };
    r = Object.fromEntries(await Promise.all(Object.entries(runs).map(async ([k, p]) => [k, await p]))) as typeof r;
  });
  afterAll(() => { for (const s of servers) s.close(); });

  it('passes a receiver built on verifyDisconnectHook', () => {
    expect(r.good.stderr).toBe('');
    expect(r.good.code).toBe(0);
    expect(r.good.stdout).toContain('only the genuine hook was accepted');
    expect(r.good.stdout).not.toContain(CLIENT_SECRET);
  });

  it('fails a receiver that accepts everything, naming every forged case', () => {
    expect(r.acceptsAll.code).toBe(1);
    for (const name of ['bad signature', 'foreign client_uuid', 'account_id missing', 'client_id missing', 'client_uuid missing', 'signature missing']) {
      expect(r.acceptsAll.stdout).toMatch(new RegExp(`FAIL ${name}`));
    }
    expect(r.acceptsAll.stdout).toContain('6 of 7 cases wrong');
  });

  it('fails a receiver that skips the client_uuid check, and one that refuses the genuine hook', () => {
    expect(r.noUuidCheck.code).toBe(1);
    expect(r.noUuidCheck.stdout).toMatch(/FAIL foreign client_uuid/);
    expect(r.noUuidCheck.stdout).toContain('1 of 7 cases wrong');
    expect(r.refusesAll.code).toBe(1);
    expect(r.refusesAll.stdout).toMatch(/FAIL genuine hook/);
  });

  it('writes report.json (of the shipped schema) and junit.xml as run does, one result per case', () => {
    const good = JSON.parse(readFileSync(join(dir, 'good', 'report.json'), 'utf8')) as Report;
    expect(shapeProblem(good)).toBeUndefined();
    expect(good.results).toHaveLength(7);
    expect(good.summary).toMatchObject({ passed: 7, failed: 0 });
    expect(readFileSync(join(dir, 'good', 'junit.xml'), 'utf8')).toMatch(/<testsuites [^>]*tests="7" failures="0"/);
    const all = JSON.parse(readFileSync(join(dir, 'acceptsAll', 'report.json'), 'utf8')) as Report;
    expect(all.results.filter((x) => x.status === 'failed').map((x) => x.id)).toContain('hook-check.bad-signature');
    const junit = readFileSync(join(dir, 'ci', 'hooks.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites [^>]*tests="7" failures="6"/);
    expect(junit).toContain('expected refused, observed accepted (200)');
    expect(JSON.stringify(all)).not.toContain(CLIENT_SECRET);
  });

  it('exits 2 without CLIENT_SECRET or a URL, 3 when the receiver cannot be reached', () => {
    expect(r.noSecret.code).toBe(2);
    expect(r.noSecret.stderr).toContain('CLIENT_SECRET is not set');
    expect(r.noUrl.code).toBe(2);
    expect(r.closed.code).toBe(3);
    expect(r.closed.stderr).toContain('cannot reach the hook receiver');
  });
});
