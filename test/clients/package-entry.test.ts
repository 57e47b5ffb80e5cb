/**
 * The package's programmatic entry (docs/sandbox.md), imported by its name as an integrator imports it: the
 * `exports` of package.json resolve `conformance-kit/emulator`, `conformance-kit/chat-signature` and
 * `conformance-kit/hook` to the bundled sources. The docs' vitest example runs as an integrator's own suite would.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { signChatRequest, EMPTY_MD5 } from 'conformance-kit/chat-signature';
import { FAULTS, startSandbox, VARIATIONS, type Sandbox } from 'conformance-kit/emulator';
import { signDisconnectHook, verifyDisconnectHook } from 'conformance-kit/hook';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

let sandbox: Sandbox;
beforeAll(async () => { sandbox = await startSandbox({ seed: 5 }); });
afterAll(() => sandbox?.close());

const bearer = () => ({ authorization: `Bearer ${sandbox.settings.LONG_LIVED_TOKEN}` });

describe('conformance-kit/emulator', () => {
  it('starts on a free port with the settings conformance emulator prints', () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.url.endsWith(':4010')).toBe(false);
    for (const key of ['BASE_URL', 'CHAT_URL', 'CONTROL_URL', 'CLIENT_ID', 'CLIENT_SECRET', 'LONG_LIVED_TOKEN', 'CHANNEL_ID', 'CHANNEL_SECRET', 'CHANNEL_ID_2', 'ADMIN_LOGIN']) {
      expect(sandbox.settings[key], key).toEqual(expect.any(String));
    }
  });

  it('switches faults, and a reset switches them back and keeps the settings working', async () => {
    expect(FAULTS.map((f: { name: string }) => f.name)).toContain('account-answer-text-plain');
    sandbox.faults.enable('account-answer-text-plain');
    expect(sandbox.faults.active()).toEqual(['account-answer-text-plain']);
    const plain = await fetch(`${sandbox.url}/api/v4/account`, { headers: bearer() });
    expect(plain.headers.get('content-type')).toMatch(/^text\/plain/);
    await fetch(`${sandbox.url}/api/v4/leads`, { method: 'POST', headers: { ...bearer(), 'content-type': 'application/json' }, body: '[{"name":"before the reset"}]' });
    await sandbox.reset();
    expect(sandbox.faults.active()).toEqual([]);
    const hal = await fetch(`${sandbox.url}/api/v4/account`, { headers: bearer() });
    expect([hal.status, hal.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^application\/hal\+json/)]);
    const gone = await fetch(`${sandbox.url}/api/v4/leads?filter[name]=before the reset`, { headers: bearer() });
    expect(gone.status).toBe(204);
    expect(() => sandbox.faults.enable('no-such-fault' as never)).toThrow();
  });

  it('switches allowed variations, which a reset switches back', async () => {
    expect(VARIATIONS.map((v: { name: string }) => v.name)).toContain('json-media-type-no-charset');
    sandbox.variations.enable('json-media-type-no-charset');
    expect(sandbox.variations.active()).toEqual(['json-media-type-no-charset']);
    const token = await fetch(`${sandbox.url}/api/v4/account`, { headers: bearer() });
    expect(token.headers.get('content-type')).toBe('application/hal+json');
    await sandbox.reset();
    expect(sandbox.variations.active()).toEqual([]);
  });

  it('reaches the control API for what it does not wrap', async () => {
    const { now } = await sandbox.control<{ now: number }>('POST', '/clock', { advance_seconds: 60 });
    expect(now).toEqual(expect.any(Number));
    await sandbox.reset();
    expect((await sandbox.control<{ offset_seconds: number }>('GET', '/clock')).offset_seconds).toBe(0);
  });
});

describe('conformance-kit/chat-signature and conformance-kit/hook', () => {
  it('sign a chat request the sandbox accepts, and verify a disconnect hook', async () => {
    const url = `/v2/origin/custom/${sandbox.settings.CHANNEL_ID}/connect`;
    const body = JSON.stringify({ account_id: sandbox.settings.CHAT_ACCOUNT_ID });
    const res = await fetch(`${sandbox.url}${url}`, { method: 'POST', body, headers: signChatRequest({ method: 'POST', url, body, secret: sandbox.settings.CHANNEL_SECRET! }) });
    expect(res.status).toBe(200);
    expect(EMPTY_MD5).toBe('d41d8cd98f00b204e9800998ecf8427e');
    const credentials = { clientId: sandbox.settings.CLIENT_ID!, clientSecret: sandbox.settings.CLIENT_SECRET! };
    expect(verifyDisconnectHook(signDisconnectHook(1, credentials), credentials).ok).toBe(true);
  });

  it('load in plain Node, without a TypeScript loader', async () => {
    const script = "const e = await import('conformance-kit/emulator'); const c = await import('conformance-kit/chat-signature'); const h = await import('conformance-kit/hook');"
      + " console.log(typeof e.startSandbox, typeof c.signChatRequest, typeof h.verifyDisconnectHook);";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    expect(stdout.trim()).toBe('function function function');
  });
});

describe('the vitest example of docs/sandbox.md', () => {
  it('runs as an integrator\'s suite: a global setup starts the sandbox, the tests use its settings', async () => {
    const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
    const { stdout } = await run(process.execPath, [vitest, 'run', '--root', 'docs/examples/vitest-sandbox'], { cwd: ROOT, env: { ...process.env, CI: '' } });
    expect(stdout).toMatch(/Tests\s+.*5 passed/);
  }, 120_000);
});
