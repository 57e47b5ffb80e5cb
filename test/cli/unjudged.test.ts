/**
 * An unjudged rule is not a green run (issue 28 §2): a `must` rule that errored, or was skipped because the target
 * refused a step it needed, makes the exit code 4 when nothing failed (1 when something did), and stderr names the
 * failed and the unjudged rules; --allow-unjudged opts out. End to end against servers that trip a step many rules
 * share: the emulator behind a proxy that leaves msgid out of the new_message answer, or refuses the history page
 * past the end.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { EXIT_UNJUDGED, exitCode } from '../../src/cli/exit-code.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Report, RuleResult } from '../../src/model/result.js';
import { summarize } from '../../src/model/result.js';
import { compareWithBaseline } from '../../src/report/baseline.js';
import { TargetAnswer } from '../../src/errors.js';
import { redirectParams } from '../../src/steps/lifecycle.js';
import type { RuleContext } from '../../src/model/context.js';
import { STEP_OWNERS } from '../../src/steps/owners.js';
import { conformance } from './helpers.js';

const result = (id: string, status: RuleResult['status'], over: Partial<RuleResult> = {}): RuleResult =>
  ({ id, section: '4.3', level: 'must', requires: [], status, title: id, duration_ms: 0, detail: status, ...over });
const reportOf = (results: RuleResult[]): Report => ({
  suite: { name: 'kit', version: '0' }, target: { kind: 'remote', base_url: 'http://x', chat_url: 'http://x' }, seed: 1,
  started_at: '', finished_at: '', summary: summarize(results), results,
});
const sink = () => {
  let text = '';
  return { stream: { write: (s: string) => { text += s; return true; } } as unknown as NodeJS.WritableStream, text: () => text };
};

describe('the exit code counts unjudged rules', () => {
  it('an errored must rule makes exit 4 and is named; --allow-unjudged keeps 0 and still names it', () => {
    const report = reportOf([result('a.ok', 'passed'), result('a.broken', 'errored'), result('a.should', 'errored', { level: 'should' })]);
    const err = sink();
    expect(exitCode(report, { strict: false }, err.stream)).toBe(EXIT_UNJUDGED);
    expect(err.text()).toContain('unjudged: 1 rule(s) reached no verdict: a.broken (errored)');
    const allowed = sink();
    expect(exitCode(report, { strict: false, allowUnjudged: true }, allowed.stream)).toBe(0);
    expect(allowed.text()).toContain('a.broken (errored) (--allow-unjudged: not counted)');
    expect(exitCode(report, { strict: true }, sink().stream)).toBe(EXIT_UNJUDGED);
  });

  it('a rule skipped behind a refused step is unjudged; a plain skip is not', () => {
    const behind = reportOf([result('a.dependent', 'skipped', { blocked_by: 'a.owner' }), result('a.filtered', 'skipped')]);
    const err = sink();
    expect(exitCode(behind, { strict: false }, err.stream)).toBe(EXIT_UNJUDGED);
    expect(err.text()).toContain('a.dependent (skipped behind a.owner)');
    expect(err.text()).not.toContain('a.filtered');
    expect(exitCode(reportOf([result('a.filtered', 'skipped')]), { strict: false }, sink().stream)).toBe(0);
  });

  it('a failure wins (exit 1), and both the failed and the unjudged rules are named', () => {
    const err = sink();
    expect(exitCode(reportOf([result('a.owner', 'failed'), result('a.dependent', 'skipped', { blocked_by: 'a.owner' })]), { strict: false }, err.stream)).toBe(1);
    expect(err.text()).toContain('failed: 1 rule(s): a.owner');
    expect(err.text()).toContain('a.dependent (skipped behind a.owner)');
  });

  it('against a baseline, only a rule the baseline judged (or did not have) and this run did not counts', () => {
    const before = reportOf([result('a.known', 'errored'), result('a.was-fine', 'passed')]);
    const known = reportOf([result('a.known', 'errored'), result('a.was-fine', 'passed')]);
    expect(exitCode(known, { strict: false, comparison: compareWithBaseline(before, known) }, sink().stream)).toBe(0);
    const worse = reportOf([result('a.known', 'errored'), result('a.was-fine', 'skipped', { blocked_by: 'a.owner' }), result('a.new', 'errored')]);
    const err = sink();
    expect(exitCode(worse, { strict: false, comparison: compareWithBaseline(before, worse) }, err.stream)).toBe(EXIT_UNJUDGED);
    expect(err.text()).toContain('unjudged: 2 rule(s) reached no verdict: a.was-fine (skipped behind a.owner), a.new (errored)');
  });

  it('every rule a set-up step names as its judge exists', () => {
    const ids = new Set(allRules().map((r) => r.id));
    expect(Object.values(STEP_OWNERS).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('a broken Deny redirect is judged by the Deny rule, not blamed on Allow', () => {
    const ownerOf = (decision: 'allow' | 'deny') => {
      try {
        redirectParams({} as RuleContext, 'not a url', decision);
      } catch (err) {
        return err instanceof TargetAnswer ? err.owner : undefined;
      }
      return undefined;
    };
    expect(ownerOf('deny')).toBe(STEP_OWNERS.denyRedirect);
    expect(ownerOf('allow')).toBe(STEP_OWNERS.allowRedirect);
  });
});

/** A proxy in front of the emulator's chat interface that changes what `rewrite` says of each answer. */
type Rewrite = (req: IncomingMessage, status: number, body: string) => { status: number; body: string } | undefined;

async function proxy(upstream: string, rewrite: Rewrite): Promise<{ url: string; server: Server }> {
  const to = new URL(upstream);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const up = request({ host: to.hostname, port: to.port, method: req.method, path: `${to.pathname.replace(/\/$/, '')}${req.url}`, headers: { ...req.headers, host: to.host } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          const body = Buffer.concat(parts).toString('utf8');
          const changed = rewrite(req, answer.statusCode ?? 502, body);
          const headers = { ...answer.headers };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          if (changed) {
            res.writeHead(changed.status, { ...headers, 'content-type': 'application/json' }).end(changed.body);
          } else res.writeHead(answer.statusCode ?? 502, headers).end(body);
        });
      });
      up.on('error', () => res.writeHead(502).end());
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const close = (s?: Server) => new Promise<void>((resolve) => { if (!s) resolve(); else { s.closeAllConnections(); s.close(() => resolve()); } });

describe('servers that trip a step many rules share', () => {
  let emulator: RunningEmulator;
  let dir: string;
  const servers: Server[] = [];
  beforeAll(async () => {
    emulator = await startEmulator();
    dir = await mkdtemp(join(tmpdir(), 'conformance-unjudged-'));
  });
  afterAll(async () => {
    for (const s of servers) await close(s);
    await emulator?.close();
  });

  async function runBehind(rewrite: Rewrite, only: string, out: string, extra: string[] = []) {
    const env = emulator.env();
    const p = await proxy(env.CHAT_URL!, rewrite);
    servers.push(p.server);
    const r = await conformance(['run', '--target', 'remote', '--only', only, '--seed', '3', '--runs', '2', '--out', join(dir, out), ...extra],
      { env: { ...env, CHAT_URL: p.url } });
    const report = JSON.parse(await readFile(join(dir, out, 'report.json'), 'utf8')) as Report;
    return { ...r, report };
  }

  it('without msgid in the new_message answer: non-zero, the valid-space rules named as skipped behind chat.message.answer', async () => {
    const withoutMsgid: Rewrite = (req, status, body) => {
      if (req.method !== 'POST' || status !== 200) return undefined;
      const b = JSON.parse(body) as { new_message?: Record<string, unknown> };
      if (!b.new_message || typeof b.new_message !== 'object') return undefined;
      delete b.new_message.msgid;
      return { status, body: JSON.stringify(b) };
    };
    const r = await runBehind(withoutMsgid, 'chat.valid-space.*,chat.message.answer', 'no-msgid');
    expect([1, EXIT_UNJUDGED], r.stderr).toContain(r.code);
    const space = r.report.results.filter((x) => x.id.startsWith('chat.valid-space.'));
    expect(space.length).toBe(7);
    for (const x of space) {
      expect(x, x.detail).toMatchObject({ status: 'skipped', blocked_by: STEP_OWNERS.sendMessage });
      expect(r.stderr).toContain(`${x.id} (skipped behind ${STEP_OWNERS.sendMessage})`);
    }
    expect(r.report.results.find((x) => x.id === STEP_OWNERS.sendMessage)?.status).not.toBe('passed');

    const allowed = await runBehind(withoutMsgid, 'chat.valid-space.*', 'no-msgid-allowed', ['--allow-unjudged']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain('--allow-unjudged: not counted');
  }, 240_000);

  it('a server that refuses the history page past the end: every history rule judged, none left unjudged', async () => {
    let refused = 0;
    const pastEnd: Rewrite = (req, status) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method !== 'GET' || !url.pathname.endsWith('/history') || Number(url.searchParams.get('offset') ?? 0) === 0 || status !== 204) return undefined;
      refused += 1;
      return { status: 400, body: JSON.stringify({ error: 'offset is past the end' }) };
    };
    const r = await runBehind(pastEnd, 'chat.history.fields,chat.history.pages,chat.message.types-accepted,chat.model.history', 'past-end');
    const unjudged = r.report.results.filter((x) => x.status === 'errored' || x.blocked_by);
    expect(unjudged.map((x) => `${x.id}: ${x.detail}`)).toEqual([]);
    expect(r.report.results.filter((x) => x.status === 'failed').map((x) => `${x.id}: ${x.detail}`)).toEqual([]);
    expect(r.code, r.stderr).toBe(0);
    expect(refused).toBe(0);
  }, 240_000);
});
