/**
 * The token store under kill -9: a child rotates the refresh token in a loop and is killed at a random moment,
 * 100 times. After every kill the file is whole, mode 0600, and either its refresh token works or the journal
 * says a refresh of exactly that token was in flight (the one window no client can close: the server rotated,
 * the answer had not reached disk yet).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { TokenStore } from '../../src/secrets/token-store.js';

const CHILD_SOURCE = fileURLToPath(new URL('../fixtures/refresh-loop.ts', import.meta.url));
// Built once to plain JavaScript beside the project's packages: a hundred children started through a TypeScript loader
// spend most of the test compiling the same file.
const CHILD = fileURLToPath(new URL('../../node_modules/.cache/conformance-tests/refresh-loop.mjs', import.meta.url));
const RUNS = 100;

let emulator: RunningEmulator;
let env: Record<string, string>;
beforeAll(async () => {
  await build({ entryPoints: [CHILD_SOURCE], outfile: CHILD, bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', logLevel: 'error' });
  emulator = await startEmulator();
  env = emulator.env();
});
afterAll(() => emulator?.close());

async function freshPair() {
  const consent = (await (await fetch(`${env.CONTROL_URL}/consent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: env.CLIENT_ID, decision: 'allow' }) })).json()) as { code: string };
  const res = await fetch(`${env.BASE_URL}/oauth2/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: env.CLIENT_ID, client_secret: env.CLIENT_SECRET, grant_type: 'authorization_code', code: consent.code, redirect_uri: env.REDIRECT_URI }),
  });
  return (await res.json()) as { access_token: string; refresh_token: string; expires_in: number };
}

async function refreshWorks(refreshToken: string): Promise<boolean> {
  const res = await fetch(`${env.BASE_URL}/oauth2/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: env.CLIENT_ID, grant_type: 'refresh_token', refresh_token: refreshToken, redirect_uri: env.REDIRECT_URI }),
  });
  return res.status === 200;
}

/** Where to kill: `delayMs` after the child prints `phase` for the `nth` time (whatever the machine's speed). */
interface KillPoint {
  readonly phase: 'ready' | 'sending' | 'received' | 'persisted';
  readonly nth: number;
  readonly delayMs: number;
}

/** Starts the loop, kills it at the kill point, and returns the phases it printed. */
function runAndKill(storePath: string, at: KillPoint): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, storePath, env.BASE_URL!, env.CLIENT_ID!, env.REDIRECT_URI!], { stdio: ['ignore', 'pipe', 'pipe'] });
    const phases: string[] = [];
    let buffered = '';
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        phases.push(line);
        if (line === at.phase && phases.filter((p) => p === at.phase).length === at.nth) setTimeout(() => child.kill('SIGKILL'), at.delayMs);
      }
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (_code, signal) => (signal === 'SIGKILL' ? resolve(phases) : reject(new Error(`child exited without being killed: ${stderr}`))));
  });
}

describe('token store', () => {
  it(`keeps a working refresh token on disk, or says a refresh was interrupted, across ${RUNS} kills`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'token-store-'));
    const points = fc.sample(fc.record({
      phase: fc.constantFrom('ready' as const, 'sending' as const, 'received' as const, 'persisted' as const),
      nth: fc.integer({ min: 1, max: 3 }),
      delayMs: fc.integer({ min: 0, max: 4 }),
    }).map((p) => (p.phase === 'ready' ? { ...p, nth: 1 } : p)), { numRuns: RUNS, seed: 42 });
    const outcome = { working: 0, interrupted: 0, rotations: 0 };
    const lastPhases: Record<string, number> = {};
    const failures: string[] = [];
    const batch = 4;
    for (let i = 0; i < RUNS; i += batch) {
      await Promise.all(points.slice(i, i + batch).map(async (at, j) => {
        const store = new TokenStore(join(dir, `tokens-${i + j}.json`));
        const pair = await freshPair();
        store.write({ access_token: pair.access_token, refresh_token: pair.refresh_token, expires_at: 0, obtained_at: 0 });
        const phases = await runAndKill(store.path, at);
        outcome.rotations += phases.filter((p) => p === 'persisted').length;
        lastPhases[phases.at(-1)!] = (lastPhases[phases.at(-1)!] ?? 0) + 1;
        const state = store.read(); // throws on a torn or corrupt file
        expect((await stat(store.path)).mode & 0o777).toBe(0o600);
        if (await refreshWorks(state.tokens!.refresh_token)) outcome.working += 1;
        else if (state.interruptedRefresh && ['sending', 'received'].includes(phases.at(-1)!)) outcome.interrupted += 1;
        else failures.push(`kill ${at.delayMs} ms after ${at.phase} #${at.nth}, last phase ${phases.at(-1)}: the stored refresh token is dead and nothing says why`);
      }));
    }
    expect(failures).toEqual([]);
    expect(outcome.working + outcome.interrupted).toBe(RUNS);
    // Kills landed in every phase and across several rotations, not only before the first request.
    expect(outcome.rotations).toBeGreaterThan(RUNS / 2);
    expect(Object.keys(lastPhases)).toEqual(expect.arrayContaining(['persisted', 'received', 'sending']));
    console.info(`token store kill test: ${JSON.stringify({ ...outcome, lastPhases })}`);
  }, 180_000);

  it('reports a missing, corrupt or foreign file clearly', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'token-store-'));
    const store = new TokenStore(join(dir, 'none.json'));
    expect(store.read()).toEqual({ tokens: undefined, interruptedRefresh: false });
    await expect(store.rotate(async () => ({ access_token: 'a', refresh_token: 'b', expires_in: 1 }))).rejects.toThrow(/conformance authorize/);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'bad.json'), '{"refresh');
    expect(() => new TokenStore(join(dir, 'bad.json')).read()).toThrow(/not valid JSON/);
    writeFileSync(join(dir, 'other.json'), '{"a":1}');
    expect(() => new TokenStore(join(dir, 'other.json')).read()).toThrow(/does not hold a token pair/);
  });
});
