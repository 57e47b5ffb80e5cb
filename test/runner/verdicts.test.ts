/**
 * The verdict policy of docs/verdicts.md, through real runs of rules (runRule): a 5xx, a reset or a hang in any exchange
 * fails the rule, `info` rules included; a target that is not there at all leaves it errored; effects are waited for as
 * long as the window allows and no longer than they take.
 */
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { allRules } from '../../specs/index.js';
import { exchangeRule, rule } from '../../src/model/define.js';
import type { RuleContext } from '../../src/model/context.js';
import type { ControlApi } from '../../src/model/control.js';
import type { HttpResponse } from '../../src/model/http.js';
import { fail, observed, outcomeOf, pass } from '../../src/model/outcome.js';
import { defineSpec, type Level, type Rule, type RuleDraft } from '../../src/model/rule.js';
import type { TargetConfig } from '../../src/model/target.js';
import { runRule, type RuleEnvironment } from '../../src/runner/run-rule.js';
import { Masker } from '../../src/secrets/mask.js';
import { targetFromEnv } from '../../src/targets/from-env.js';
import { HttpClient } from '../../src/targets/http.js';
import { status } from '../../src/checks/status.js';

/** A credential the run knows (learnt from an answer or a setting). */
const LEAKED = 'eyJhbGciOi.leaked-access-token.sig';
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/500') res.writeHead(500, { 'content-type': 'application/json' }).end('{"title":"boom"}');
    else if (req.url === '/reset') req.socket.destroy();
    else if (req.url === '/hang') return; // never answers
    else if (req.url === '/cookie') res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': `access_token=${LEAKED}; Path=/` }).end('{}');
    else if (req.url === '/redirect') res.writeHead(303, { location: `https://integration.example/cb?code=${LEAKED}` }).end();
    else if (req.url === '/secret') res.writeHead(400, { 'content-type': 'application/json' }).end(`{"detail":"bad secret, expected client-secret-0001"}`);
    else if (req.url === '/links') res.writeHead(200, { 'content-type': 'application/hal+json' }).end(`{"_links":{"self":{"href":"/api/v4/leads?access_token=${LEAKED}"}}}`);
    else if (req.url?.startsWith('/echo')) res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: `unknown code ${new URL(req.url, 'http://x').searchParams.get('code')}` }));
    else if (req.url === '/pair') res.writeHead(200, { 'content-type': 'application/json' }).end(`{"access_token":"${LEAKED}","refresh_token":"r-0123456789abcdef"}`);
    else if (req.url === '/task-types') res.writeHead(200, { 'content-type': 'application/json' }).end('{"task_types":[{"id":1,"code":"FOLLOW_UP"}],"note":"FOLLOW_UP"}');
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  vi.useRealTimers();
});

const credentials = { clientId: 'client-id-0001', clientSecret: 'client-secret-0001', redirectUri: 'https://integration.example/cb' };
const target = (over: Partial<TargetConfig> = {}): TargetConfig => ({ kind: 'remote', baseUrl: base, authUrl: base, chatUrl: base, credentials, capabilities: [], ...over });

function complete(draft: RuleDraft, level: Level = 'must'): Rule {
  return defineSpec({ section: '9', title: 'verdict tests', level, rules: [draft] }).rules[0]!;
}

async function run(r: Rule, env: Partial<RuleEnvironment> = {}, client = new HttpClient()) {
  try {
    return await runRule(r, { target: target(), client, control: undefined, masker: new Masker(), seed: 1, runs: 3, runId: 'run-test', ...env });
  } finally {
    await client.close();
  }
}

/** A first request that is answered, then one to `path`. */
const okThen = (path: string) => async (t: RuleContext): Promise<HttpResponse> => {
  await t.send({ method: 'GET', url: `${t.target.baseUrl}/ok` });
  return t.send({ method: 'GET', url: `${t.target.baseUrl}${path}` });
};

describe('5xx, resets and hangs fail a rule', () => {
  const infoRule = (path: string) => complete(exchangeRule(
    { id: `verdict.info${path.replace('/', '.')}`, title: 'an info rule that only reports what it saw' },
    { send: async (t) => { await t.send({ method: 'GET', url: `${t.target.baseUrl}${path}` }); return t.send({ method: 'GET', url: `${t.target.baseUrl}/ok` }); },
      expect: [(res) => observed('answer', `answered ${res.status}`)] },
  ), 'info');

  it('a 5xx in any exchange of an info rule makes it failed, naming the exchange', async () => {
    const result = await run(infoRule('/500'));
    expect(result.status).toBe('failed');
    expect(result.detail).toContain('exchange 1 (GET');
    expect(result.detail).toContain('answered 500 (a server error)');
    expect(result.findings?.[0]).toMatchObject({ check: 'no 5xx', verdict: 'failed' });
    expect(result.reproduction).toContain('/500');
  });

  it('without one, the same info rule is informational', async () => {
    expect((await run(infoRule('/ok'))).status).toBe('informational');
  });

  it('a connection reset makes a rule failed, not errored', async () => {
    const r = complete(exchangeRule({ id: 'verdict.reset', title: 'a rule whose second request is dropped' }, { send: okThen('/reset'), expect: [status(200)] }));
    const result = await run(r);
    expect(result.status).toBe('failed');
    expect(result.detail).toContain('exchange 2');
    expect(result.detail).toContain('was dropped (connection reset)');
  });

  it('a request that hangs until the time limit makes a rule failed', async () => {
    const r = complete(exchangeRule({ id: 'verdict.hang', title: 'a rule whose request never gets an answer' }, { send: okThen('/hang'), expect: [status(200)] }));
    const result = await run(r, {}, new HttpClient({ timeoutMs: 300 }));
    expect(result.status).toBe('failed');
    expect(result.detail).toContain('hung until the time limit');
  });

  it('a credential in a header, or a secret key in a body, fails a rule; a code in a redirect to the Redirect URI does not', async () => {
    const masker = () => { const m = new Masker(); m.add(LEAKED); return m; };
    const leak = (path: string) => complete(exchangeRule({ id: `verdict.leak${path.replace('/', '.')}`, title: 'a rule whose answer may leak' }, { send: okThen(path), expect: [] }));
    const cookie = await run(leak('/cookie'), { masker: masker() });
    expect(cookie.status).toBe('failed');
    expect(cookie.detail).toContain('answered with a credential in the set-cookie header');
    expect(cookie.findings?.[0]?.check).toBe('no credential leak');
    expect((await run(leak('/redirect'), { masker: masker() })).status).toBe('passed');
    const secret = await run(leak('/secret'), { masker: masker() });
    expect(secret.status).toBe('failed');
    expect(secret.detail).toContain('the body (a secret key)');
  });

  it('a credential the run has seen anywhere in a body\'s values fails a rule; the pair a token answer issues and an echo of what the request sent do not', async () => {
    const masker = () => { const m = new Masker(); m.add(LEAKED); return m; };
    const leak = (path: string) => complete(exchangeRule({ id: `verdict.body${path.replace(/[/?=]/g, '.')}`, title: 'a rule whose answer may leak' }, { send: okThen(path), expect: [] }));
    const links = await run(leak('/links'), { masker: masker() });
    expect(links.status).toBe('failed');
    expect(links.detail).toContain('the body (a credential the run has seen)');
    expect((await run(leak(`/echo?code=${LEAKED}`), { masker: masker() })).status).toBe('passed');
    expect((await run(leak('/pair'), { masker: masker() })).status).toBe('passed');
  });

  it('a body\'s `code` member is a name, not learned as a credential: its recurrence is no leak', async () => {
    const r = complete(rule({ id: 'verdict.code-member', title: 'reads an answer with a code member twice' }, async (t) => {
      await t.send({ method: 'GET', url: `${t.target.baseUrl}/task-types` });
      await t.send({ method: 'GET', url: `${t.target.baseUrl}/task-types` });
      return { verdict: 'passed', detail: 'read', findings: [] };
    }));
    expect((await run(r)).status).toBe('passed');
  });

  it('a 5xx seen by a property case fails the rule even when the rule itself threw afterwards', async () => {
    const r = complete(rule({ id: 'verdict.threw', title: 'sees a 5xx, then the kit throws' }, async (t) => {
      await t.send({ method: 'GET', url: `${t.target.baseUrl}/500` });
      throw new Error('the kit itself broke');
    }));
    const result = await run(r);
    expect(result.status).toBe('failed');
    expect(result.detail).toContain('the kit threw');
  });

  it('a target that is not there at all leaves the rule errored', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const r = complete(exchangeRule({ id: 'verdict.refused', title: 'a rule against a closed port' }, { send: (t) => t.send({ method: 'GET', url: `http://127.0.0.1:${port}/x` }), expect: [status(200)] }));
    const result = await run(r);
    expect(result.status).toBe('errored');
    expect(result.detail).toContain('connection refused');
  });
});

describe('waiting for asynchronous effects', () => {
  it('a poll returns as soon as the effect is seen, not at the end of its window', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let probes = 0;
    let seen: { polls: number; waitedMs: number; seen: boolean } | undefined;
    const r = complete(rule({ id: 'verdict.poll', title: 'waits for an effect that shows at the third look' }, async (t) => {
      seen = await t.eventually(async () => ++probes, { within: 15_000, until: (n) => n >= 3 });
      return outcomeOf([seen.seen ? pass('effect', 'seen') : fail('effect', 'not seen')]);
    }));
    const started = Date.now();
    const result = run(r);
    await vi.advanceTimersByTimeAsync(200);
    expect((await result).status).toBe('passed');
    expect(seen).toMatchObject({ seen: true, polls: 3 });
    expect(probes).toBe(3);
    expect(seen!.waitedMs).toBeLessThan(200);
    expect(Date.now() - started).toBeLessThanOrEqual(200);
  });

  it('an effect that never shows is watched for the whole window, which the emulator caps', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const waited: Record<string, number> = {};
    const never = (kind: TargetConfig['kind']) => complete(rule({ id: `verdict.never.${kind}`, title: 'waits for an effect that never shows' }, async (t) => {
      const o = await t.eventually(async () => false, { within: 15_000 });
      waited[kind] = o.waitedMs;
      return outcomeOf([o.seen ? pass('effect', 'seen') : fail('effect', `not seen after ${o.waitedMs} ms`)]);
    }));
    const remote = run(never('remote'));
    await vi.advanceTimersByTimeAsync(16_000);
    expect((await remote).status).toBe('failed');
    const emulator = run(never('emulator'), { target: target({ kind: 'emulator' }) });
    await vi.advanceTimersByTimeAsync(2_000);
    expect((await emulator).status).toBe('failed');
    expect(waited.remote).toBeGreaterThanOrEqual(15_000);
    expect(waited.remote).toBeLessThan(16_000);
    expect(waited.emulator).toBeGreaterThanOrEqual(1_000);
    expect(waited.emulator).toBeLessThan(2_000);
  });
});

describe('a disconnect hook that arrives late', () => {
  const hookRule = allRules().find((r) => r.id === 'hook.disconnect.parameters')!;

  /** A control API that acts as the user and, on disconnect, has the hook sent to the registered URL `delayMs` later. */
  function lateHookControl(delayMs: number) {
    let hookUrl = '';
    let disconnected!: () => void;
    const whenDisconnected = new Promise<void>((resolve) => { disconnected = resolve; });
    const control: ControlApi = {
      async call<T>(method: string, path: string, body?: unknown): Promise<T> {
        if (path === '/hook-url') hookUrl = (body as { hook_url: string }).hook_url;
        if (path === '/accounts') return { accounts: [{ id: 1, admin_role: 'administrator' }, { id: 2, admin_role: 'administrator' }] } as T;
        if (path === '/disconnect') {
          const accountId = String((body as { account_id: number }).account_id);
          setTimeout(() => {
            const query = new URLSearchParams({ account_id: accountId, client_id: credentials.clientId, client_uuid: credentials.clientId, signature: 'ab'.repeat(32) });
            // Too late for a short window, the receiver is closed by then: the refusal is expected.
            get(`${hookUrl}?${query}`, (res) => res.resume()).on('error', () => undefined);
          }, delayMs);
          disconnected();
        }
        return {} as T;
      },
      async consent() { return { location: `${credentials.redirectUri}?code=code-0001-abcdef&referer=x&platform=1` }; },
      async freshCode() { return 'code-0001-abcdef'; },
      async now() { return Math.floor(Date.now() / 1000); },
      async advanceClock() { return 0; },
    };
    return { control, whenDisconnected };
  }

  const hookTarget = (kind: TargetConfig['kind']) => target({ kind, capabilities: ['control', 'hook'], hookListen: '127.0.0.1:0', controlUrl: `${base}/_control` });

  it('passes the hook rule when the hook comes 10 s after the disconnect (within the 30 s window)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { control, whenDisconnected } = lateHookControl(10_000);
    const result = run(hookRule, { target: hookTarget('remote'), control });
    await whenDisconnected;
    await vi.advanceTimersByTimeAsync(10_000);
    const r = await result;
    expect(r.status, r.detail).toBe('passed');
    expect(r.findings?.map((f) => f.check)).toEqual(['hook received', 'GET', 'hook parameters', 'account_id', 'client_id']);
  });

  it('fails it on the emulator, whose hooks come before its answer: 10 s late is past its window', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { control, whenDisconnected } = lateHookControl(10_000);
    const result = run(hookRule, { target: hookTarget('emulator'), control });
    await whenDisconnected;
    await vi.advanceTimersByTimeAsync(10_000);
    const r = await result;
    expect(r.status).toBe('failed');
    expect(r.detail).toContain('hook received');
  });

  it('fails it on a remote target whose EFFECT_WINDOW_MS says it acts within 1 s, and a bad value names the key', async () => {
    const env = { BASE_URL: base, CLIENT_ID: 'c', CLIENT_SECRET: 's', REDIRECT_URI: 'https://example.test/cb' };
    const capped = targetFromEnv({ ...env, EFFECT_WINDOW_MS: '1000' }, 'remote');
    expect(capped.effectWindowMs).toBe(1000);
    expect(targetFromEnv(env, 'remote').effectWindowMs).toBeUndefined();
    expect(() => targetFromEnv({ ...env, EFFECT_WINDOW_MS: 'soon' }, 'remote')).toThrow(/EFFECT_WINDOW_MS/);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { control, whenDisconnected } = lateHookControl(10_000);
    const result = run(hookRule, { target: { ...hookTarget('remote'), effectWindowMs: capped.effectWindowMs }, control });
    await whenDisconnected;
    await vi.advanceTimersByTimeAsync(10_000);
    const r = await result;
    expect(r.status).toBe('failed');
    expect(r.detail).toContain('hook received');
  });
});

describe('a rule\'s outcome is its worst judged finding (issue 28 §3)', () => {
  it('a note beside judged passes leaves the rule passed, the note kept in the detail', () => {
    const o = outcomeOf([pass('status', '200'), observed('extra', 'a member the spec does not name'), pass('body', 'ok')]);
    expect(o.verdict).toBe('passed');
    expect(o.detail).toContain('note: extra: a member the spec does not name');
  });

  it('a failure met beside a note stays failed', () => {
    const o = outcomeOf([observed('account', 'another account answered'), fail('token', 'expected a token of this account, observed another')]);
    expect(o.verdict).toBe('failed');
    expect(o.detail).toMatch(/^token: expected/);
    expect(o.detail).toContain('note: account');
  });

  it('only notes make the outcome informational', () => {
    expect(outcomeOf([observed('a', 'seen 1'), observed('b', 'seen 2')])).toMatchObject({ verdict: 'informational', detail: 'a: seen 1; b: seen 2' });
  });

  it('a must rule that judged and noted ends passed in the runner too', async () => {
    const r = complete(exchangeRule({ id: 'verdict.notes', title: 'a must rule with a note' },
      { send: (t) => t.send({ method: 'GET', url: `${t.target.baseUrl}/ok` }), expect: [status(200), (res) => observed('answer', `answered ${res.status}`)] }));
    expect((await run(r)).status).toBe('passed');
  });
});

describe('exchanges the browser made are judged as the rule\'s own (issue 28 §6)', () => {
  const decide = { method: 'POST', url: 'http://target.example/oauth/decide', headers: {}, body: 'decision=allow' };
  const page = (answer: Parameters<RuleContext['recordBrowserExchange']>[1]) => complete(rule({ id: 'verdict.page', title: 'a page navigation' }, async (t) => {
    t.recordBrowserExchange(decide, answer);
    return outcomeOf([pass('redirect', 'reached')]);
  }));

  it('a navigation that hung fails the rule with no hang', async () => {
    const result = await run(page({ error: 'Timeout 30000ms exceeded', kind: 'timeout' }));
    expect(result.status).toBe('failed');
    expect(result.findings?.[0]).toMatchObject({ check: 'no hang', verdict: 'failed' });
    expect(result.request_count).toBe(1);
  });

  it('the client secret on the Allow redirect to the Redirect URI fails it; the code there does not', async () => {
    const location = (extra: string) => ({ response: { status: 303, headers: { location: `${credentials.redirectUri}?code=def50200abcdef${extra}` }, text: '', durationMs: 3 } });
    expect((await run(page(location('')))).status).toBe('passed');
    // The run's masker knows its credentials (maskerFor), so the recorded redirect shows the key masked.
    const masker = new Masker();
    masker.add(credentials.clientSecret);
    const leaked = await run(page(location(`&client_secret=${credentials.clientSecret}`)), { masker });
    expect(leaked.status).toBe('failed');
    expect(leaked.detail).toContain('a secret key on the redirect to the Redirect URI');
    expect(JSON.stringify(leaked)).not.toContain(credentials.clientSecret);
  });
});
