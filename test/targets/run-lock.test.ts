/**
 * The run lock (src/emulator/control/lock.ts, src/targets/run-lock.ts): a lease one run holds, another meets as a 409
 * naming it; a lease that ran out is free again, so a crashed run does not lock the emulator forever.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockRoutes } from '../../src/emulator/control/lock.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { TargetBusyError, UnreachableError } from '../../src/errors.js';
import { HttpClient } from '../../src/targets/http.js';
import { takeRunLock } from '../../src/targets/run-lock.js';

describe('the lock routes', () => {
  let t = 1_000_000;
  const app = Fastify();
  lockRoutes(app, '/lock', () => t);
  const call = async (method: 'GET' | 'POST' | 'DELETE', body?: unknown) => {
    const res = await app.inject({ method, url: '/lock', ...(body === undefined ? {} : { payload: body as object }) });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  };

  it('one run holds it, renews it, another meets a 409 naming it; a lease that ran out is free', async () => {
    expect(await call('GET')).toEqual({ status: 200, body: { held: false } });
    expect(await call('POST', { run_id: 'a', lease_seconds: 10 })).toMatchObject({ status: 200, body: { held: true, run_id: 'a', started_at: 1000, expires_at: 1010 } });
    const refused = await call('POST', { run_id: 'b' });
    expect(refused).toMatchObject({ status: 409, body: { run_id: 'a', started_at: 1000 } });
    expect(refused.body.detail).toContain('locked by run a');
    t += 5_000;
    expect(await call('POST', { run_id: 'a', lease_seconds: 10 })).toMatchObject({ status: 200, body: { started_at: 1000, expires_at: 1015 } });
    expect((await call('DELETE', { run_id: 'b' })).status).toBe(409);
    t += 15_000;
    expect(await call('GET')).toEqual({ status: 200, body: { held: false } });
    expect(await call('POST', { run_id: 'b' })).toMatchObject({ status: 200, body: { run_id: 'b', started_at: 1020 } });
    expect(await call('DELETE', { run_id: 'b' })).toEqual({ status: 200, body: { held: false } });
  });
});

describe('takeRunLock against the emulator', () => {
  let emulator: RunningEmulator;
  const client = new HttpClient();
  beforeAll(async () => { emulator = await startEmulator(); });
  afterAll(async () => { await client.close(); await emulator?.close(); });

  it('takes the lock; a second run is refused naming the first; a reset leaves it; release frees it', async () => {
    const controlUrl = `${emulator.url}/_control`;
    const first = await takeRunLock({ controlUrl, client, runId: 'run-one' });
    expect(first.held).toBe(true);
    await fetch(`${controlUrl}/reset`, { method: 'POST' });
    const err = await takeRunLock({ controlUrl, client, runId: 'run-two' }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(TargetBusyError);
    expect((err as Error).message).toMatch(/in use by run run-one, started at \d{4}-\d\d-\d\dT/);
    await first.release();
    const second = await takeRunLock({ controlUrl, client, runId: 'run-two' });
    await second.release();
    expect(await (await fetch(`${controlUrl}/lock`)).json()).toEqual({ held: false });
  });

  it('a control API without a lock (404): the run goes on, and says runs are not kept apart', async () => {
    const lines: string[] = [];
    const lock = await takeRunLock({ controlUrl: `${emulator.url}/_control/no-such-api`, client, runId: 'run-x', log: (l) => lines.push(l) });
    expect(lock.held).toBe(false);
    expect(lines.join('\n')).toMatch(/has no run lock/);
  });

  it('nothing at CONTROL_URL: UnreachableError naming it (exit 3), not a stack', async () => {
    const err = await takeRunLock({ controlUrl: 'http://127.0.0.1:1/_control', client, runId: 'run-x' }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(UnreachableError);
    expect((err as Error).message).toContain('CONTROL_URL http://127.0.0.1:1/_control');
  });
});
