/**
 * A remote run meets its target's problems before any rule (issue 37 §4, §5): a page server at BASE_URL stops with
 * exit 3 naming it, a wrong secret with exit 2 naming the key and the emulator as it was, and a second run against an
 * emulator a run holds meets one clear error naming that run (or waits with --wait).
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { BIN, conformance } from './helpers.js';

let emulator: RunningEmulator;
let settings: Record<string, string>;
let dir: string;
let page: Server;

beforeAll(async () => {
  emulator = await startEmulator();
  settings = await emulatorSettings(emulator);
  dir = await mkdtemp(join(tmpdir(), 'conformance-preflight-'));
  page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Sign in</title>'));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  page?.close();
  await emulator?.close();
});

const ONLY = ['--only', 'oauth.token.code.wrong', '--seed', '3', '--runs', '1'];
const control = (path: string, init: RequestInit = {}) => fetch(`${emulator.url}/_control${path}`, { ...init, headers: { 'content-type': 'application/json' } }).then((r) => r.json() as Promise<Record<string, unknown>>);
const state = async () => {
  const { now: _now, ...rest } = await control('');
  return rest;
};

describe('the preflight of a remote run', () => {
  it('a page at BASE_URL: exit 3, one line naming BASE_URL, no rule run', async () => {
    const base = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    const { CONTROL_URL: _c, ...env } = settings;
    const r = await conformance(['run', '--target', 'remote', '--out', join(dir, 'page')], { env: { ...env, BASE_URL: base } });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`conformance run: the target at BASE_URL ${base} does not answer as the service`);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.stdout).not.toMatch(/passed \d+/);
  });

  it.each(['CLIENT_SECRET', 'CHANNEL_SECRET'])('a wrong %s: exit 2 naming it, and the emulator as it found it', async (key) => {
    const before = await state();
    const wrong = 'Wr0ng'.repeat(8);
    const r = await conformance(['run', '--target', 'remote', '--out', join(dir, key)], { env: { ...settings, [key]: wrong } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^conformance run: ${key} is refused by`, 'm'));
    expect(r.stderr).not.toContain(wrong);
    expect(await state()).toEqual(before);
    // The emulator's own secret still authenticates: a run with the right settings gets past the preflight.
    const ok = await conformance(['run', '--target', 'remote', ...ONLY, '--out', join(dir, `${key}-after`)], { env: settings });
    expect(ok.code, ok.stderr).toBe(0);
  });
});

describe('one run at a time', () => {
  it('a second run against an emulator a run holds: exit 2 naming that run and its start, no rule run', async () => {
    const held = await control('/lock', { method: 'POST', body: JSON.stringify({ run_id: 'run-first-ci-job', lease_seconds: 300 }) });
    expect(held).toMatchObject({ held: true, run_id: 'run-first-ci-job' });
    try {
      const r = await conformance(['run', '--target', 'remote', ...ONLY, '--out', join(dir, 'second')], { env: settings });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`the target is in use by run run-first-ci-job, started at ${new Date((held.started_at as number) * 1000).toISOString()}`);
      expect(r.stdout).not.toMatch(/passed \d+/);
    } finally {
      await control('/lock', { method: 'DELETE', body: JSON.stringify({ run_id: 'run-first-ci-job' }) });
    }
  });

  it('with --wait, the second run waits for the first to release the lock, then runs; its own lock is released at its end', async () => {
    await control('/lock', { method: 'POST', body: JSON.stringify({ run_id: 'run-first-ci-job', lease_seconds: 300 }) });
    const child = spawn(process.execPath, ['--', BIN, 'run', '--target', 'remote', ...ONLY, '--wait', '--out', join(dir, 'waited')], {
      env: { PATH: process.env.PATH, CI: 'true', ...settings }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) => child.stderr.on('data', (d) => { stderr += d; if (stderr.includes('waiting for run run-first-ci-job')) resolve(); }));
    await control('/lock', { method: 'DELETE', body: JSON.stringify({ run_id: 'run-first-ci-job' }) });
    expect(await ended, stderr).toBe(0);
    expect(await control('/lock')).toEqual({ held: false });
  });

  it('a run ended by SIGTERM releases its lock on the way out, and still ends by the signal (exit 143, its reports written)', async () => {
    const child = spawn(process.execPath, ['--', BIN, 'run', '--target', 'remote', '--profile', 'quick', '--seed', '3', '--out', join(dir, 'signalled')], {
      env: { PATH: process.env.PATH, CI: 'true', ...settings }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve) => child.stderr.on('data', (d) => { stderr += d; if (stderr.includes('conformance: preflight:')) resolve(); }));
    expect(await control('/lock')).toMatchObject({ held: true });
    child.kill('SIGTERM');
    expect(await ended, stderr).toBe(143);
    expect(await control('/lock')).toEqual({ held: false });
  });
});
