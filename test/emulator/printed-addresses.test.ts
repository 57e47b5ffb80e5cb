/**
 * Every printed address reachable as printed (issue 40): the URLs `conformance emulator` (its default, deployed shape)
 * and `startSandbox()` print answer a plain `fetch` with no lookup of the test's own (the machine's resolver knows
 * nothing of `*.localhost` on a stock Debian), and a Python client in a subprocess where python3 is there. With
 * `--account-domain` the accounts are served by name, with the /etc/hosts line and a HOST_RESOLVE that
 * `node --import conformance-kit/resolve` applies to every Node client of a process. With `--state`, a restart prints
 * the same settings and keeps its records.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox.js';
import { emulatorProcess, type EmulatorProcess } from './emulator-process.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HAS_PYTHON = spawnSync('python3', ['--version']).status === 0;

/** Each printed URL with a request of the service there and the status it answers (no bearer, so no state changes). */
function probes(settings: Record<string, string>): Array<{ key: string; url: string; status: number }> {
  const chat = `/v2/origin/custom/${settings.CHANNEL_ID}/connect`;
  const byKey: Record<string, { path: string; status: number }> = {
    BASE_URL: { path: '/api/v4/account', status: 401 },
    BASE_URL_2: { path: '/api/v4/account', status: 401 },
    // The access-granting page, asked for no integration: its own error page.
    AUTH_URL: { path: '/oauth', status: 400 },
    // Unsigned: refused by the signature check (§5.2), which comes first.
    CHAT_URL: { path: chat, status: 403 },
    CONTROL_URL: { path: '/accounts', status: 200 },
  };
  const urls = Object.keys(settings).filter((k) => /_URL(?:_\d+)?$/.test(k) && /^https?:/.test(settings[k]!) && k !== 'REDIRECT_URI');
  return urls.map((key) => {
    const probe = byKey[key];
    if (!probe) throw new Error(`no probe for the printed ${key}=${settings[key]}: add one`);
    return { key, url: `${settings[key]}${probe.path}`, status: probe.status };
  });
}

/** Plain `fetch`: the process's global dispatcher, the machine's resolver. */
async function fetchAll(settings: Record<string, string>): Promise<void> {
  for (const { key, url, status } of probes(settings)) {
    const r = await fetch(url);
    expect(r.status, `${key}: ${url}`).toBe(status);
    // The service's answer: JSON, or the page's HTML.
    expect(r.headers.get('content-type'), key).toMatch(key === 'AUTH_URL' ? /^text\/html/ : /json/);
    await r.arrayBuffer();
  }
}

/** The same from Python (requests when it is installed, else urllib), in a subprocess. */
async function pythonAll(settings: Record<string, string>): Promise<void> {
  const list = probes(settings);
  const script = [
    'import json, sys',
    'try:',
    '    import requests',
    '    get = lambda u: requests.get(u, allow_redirects=False).status_code',
    'except ImportError:',
    '    import urllib.request, urllib.error',
    '    def get(u):',
    '        try:',
    '            return urllib.request.urlopen(u).status',
    '        except urllib.error.HTTPError as e:',
    '            return e.code',
    'print(json.dumps([get(u) for u in sys.argv[1:]]))',
  ].join('\n');
  const { stdout } = await run('python3', ['-c', script, ...list.map((p) => p.url)], { env: { PATH: process.env.PATH } });
  expect(JSON.parse(stdout)).toEqual(list.map((p) => p.status));
}

describe('conformance emulator, its default shape', () => {
  let emulator: EmulatorProcess;
  beforeAll(async () => { emulator = await emulatorProcess(['--port', '0']); }, 60_000);
  afterAll(async () => { await emulator?.stop(); });

  it('prints an origin of its own for each account and the chat interface, at the loopback address, no HOST_RESOLVE', () => {
    const { settings } = emulator;
    const origins = ['BASE_URL', 'BASE_URL_2', 'CHAT_URL', 'AUTH_URL'].map((k) => settings[k]!);
    for (const o of origins) expect(o).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set(origins).size).toBe(origins.length);
    expect(settings.HOST_RESOLVE).toBeUndefined();
  });

  it('answers every printed URL to a plain fetch', async () => {
    await fetchAll(emulator.settings);
  });

  it.runIf(HAS_PYTHON)('answers every printed URL to a Python client', async () => {
    await pythonAll(emulator.settings);
  });
});

describe('startSandbox()', () => {
  let sandbox: Sandbox;
  beforeAll(async () => { sandbox = await startSandbox(); });
  afterAll(async () => { await sandbox?.close(); });

  it('answers every printed URL to a plain fetch', async () => {
    await fetchAll(sandbox.settings);
  });

  it.runIf(HAS_PYTHON)('answers every printed URL to a Python client', async () => {
    await pythonAll(sandbox.settings);
  });

  it('answers every printed URL of its deployed shape to a plain fetch', async () => {
    const deployed = await startSandbox({ shape: 'deployed' });
    try {
      await fetchAll(deployed.settings);
    } finally {
      await deployed.close();
    }
  });
});

describe('conformance emulator --account-domain', () => {
  let emulator: EmulatorProcess;
  beforeAll(async () => { emulator = await emulatorProcess(['--account-domain', 'amocrm.ru', '--port', '0']); }, 60_000);
  afterAll(async () => { await emulator?.stop(); });

  it('serves the accounts as <subdomain>.amocrm.ru and prints the /etc/hosts line and HOST_RESOLVE', () => {
    const { settings, stderr } = emulator;
    const port = new URL(settings.AUTH_URL!).port;
    expect(settings.BASE_URL).toMatch(new RegExp(`^http://emu[a-z]+\\.amocrm\\.ru:${port}$`));
    expect(settings.CHAT_URL).toBe(`http://amojo.amocrm.ru:${port}`);
    expect(settings.HOST_RESOLVE).toBe('*.amocrm.ru=127.0.0.1');
    const hosts = new RegExp(`^  127\\.0\\.0\\.1 ${new URL(settings.BASE_URL!).hostname.replace(/\./g, '\\.')} .*${new URL(settings.BASE_URL_2!).hostname.replace(/\./g, '\\.')}.* amojo\\.amocrm\\.ru$`, 'm');
    expect(stderr).toMatch(hosts);
  });

  it('is reached by a Node process preloaded with conformance-kit/resolve, through fetch and through http', async () => {
    const { settings } = emulator;
    const script = [
      "import http from 'node:http';",
      'const url = `${process.argv[1]}/api/v4/account`;',
      'const viaFetch = (await fetch(url)).status;',
      'const viaHttp = await new Promise((ok, ko) => http.get(url, (r) => { r.resume(); ok(r.statusCode); }).on("error", ko));',
      'console.log(JSON.stringify([viaFetch, viaHttp]));',
    ].join('\n');
    const env = { PATH: process.env.PATH, HOST_RESOLVE: settings.HOST_RESOLVE };
    // By the package's name, as an integrator writes it (the package's `exports` resolve it from its own directory).
    const { stdout } = await run(process.execPath, ['--import', 'conformance-kit/resolve', '--input-type=module', '-e', script, settings.BASE_URL!], { env, cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual([401, 401]);
    // Without the preload the name is unknown to the machine (or, where it is known, not this emulator's).
    const bare = await run(process.execPath, ['--input-type=module', '-e', 'try { await fetch(process.argv[1]); console.log("reached"); } catch { console.log("unresolved"); }', `${settings.BASE_URL}/api/v4/account`], { env: { PATH: process.env.PATH } });
    expect(bare.stdout.trim()).toBe('unresolved');
  }, 60_000);

  it('refuses a domain that is not a DNS name, naming the option', async () => {
    const child = spawnSync(process.execPath, ['--', fileURLToPath(new URL('../../bin/conformance.js', import.meta.url)), 'emulator', '--account-domain', 'not a domain', '--port', '0'], { encoding: 'utf8' });
    expect(child.status).toBe(2);
    expect(child.stderr).toContain('--account-domain');
  });
});

describe('conformance emulator --state', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'conformance-state-')); });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  it('prints the same settings after a restart and keeps a record made before it; a reset returns to that state', async () => {
    const state = join(dir, 'sandbox.json');
    const first = await emulatorProcess(['--port', '0', '--state', state]);
    const { settings } = first;
    const headers = { authorization: `Bearer ${settings.LONG_LIVED_TOKEN}`, 'content-type': 'application/json' };
    let id: number;
    try {
      const made = await fetch(`${settings.BASE_URL}/api/v4/leads`, { method: 'POST', headers, body: JSON.stringify([{ name: 'Kept across restarts' }]) });
      expect(made.status).toBe(200);
      id = ((await made.json()) as { _embedded: { leads: { id: number }[] } })._embedded.leads[0]!.id;
    } finally {
      await first.stop();
    }
    const second = await emulatorProcess(['--port', '0', '--state', state]);
    try {
      expect(second.stdout).toBe(first.stdout);
      const read = async () => fetch(`${second.settings.BASE_URL}/api/v4/leads/${id}`, { headers });
      const kept = await read();
      expect(kept.status).toBe(200);
      expect(((await kept.json()) as { name: string }).name).toBe('Kept across restarts');
      // A record made after the restart goes on a reset; the state loaded stays.
      const later = await fetch(`${second.settings.BASE_URL}/api/v4/leads`, { method: 'POST', headers, body: JSON.stringify([{ name: 'Made after' }]) });
      const laterId = ((await later.json()) as { _embedded: { leads: { id: number }[] } })._embedded.leads[0]!.id;
      expect((await fetch(`${second.settings.CONTROL_URL}/reset`, { method: 'POST' })).status).toBe(200);
      expect((await read()).status).toBe(200);
      expect((await fetch(`${second.settings.BASE_URL}/api/v4/leads/${laterId}`, { headers })).status).toBe(404);
    } finally {
      await second.stop();
    }
  }, 120_000);

  it('keeps a startSandbox({ state }) the same way: the same settings, the long-lived token still valid', async () => {
    const state = join(dir, 'sandbox-api.json');
    const first = await startSandbox({ state });
    const settings = { ...first.settings };
    await first.close();
    const second = await startSandbox({ state });
    try {
      expect(second.settings).toEqual(settings);
      const account = await fetch(`${second.settings.BASE_URL}/api/v4/account`, { headers: { authorization: `Bearer ${settings.LONG_LIVED_TOKEN}` } });
      expect(account.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('refuses a file that is not a state file, naming the option', async () => {
    const child = spawnSync(process.execPath, ['--', fileURLToPath(new URL('../../bin/conformance.js', import.meta.url)), 'emulator', '--port', '0', '--state', fileURLToPath(new URL('../../package.json', import.meta.url))], { encoding: 'utf8' });
    expect(child.status).toBe(2);
    expect(child.stderr).toContain('--state');
  });
});
