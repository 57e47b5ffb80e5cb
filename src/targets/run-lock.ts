/**
 * One run at a time per target (issue 37 §5): a run against a target with a control API holds its lock
 * (`/_control/lock`, docs/control-api.md) from before its first rule to its end. A second run meets one clear error
 * naming the first run's id and start (exit 2), or with `--wait` waits for it to end, instead of both resetting and
 * moving the clock under each other into false failures.
 *
 * The lock is a lease the run renews while it runs: a run that crashed (or was killed) holds it at most one lease
 * longer. A run ended by SIGINT or SIGTERM releases it on the way out.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { TargetBusyError, TransportError, UnreachableError } from '../errors.js';
import type { HttpResponse } from '../model/http.js';
import type { HttpClient } from './http.js';

/** The lease asked for; renewed every third of it, so that one late renewal does not lose the lock. */
export const LEASE_SECONDS = 60;
/** How often a waiting run asks again. */
const WAIT_POLL_MS = 2_000;

export interface LockOptions {
  readonly controlUrl: string;
  readonly client: HttpClient;
  readonly runId: string;
  /** `--wait`: wait for the run holding the lock to end instead of stopping. */
  readonly wait?: boolean;
  readonly log?: (line: string) => void;
  readonly leaseSeconds?: number;
}

export interface HeldLock {
  /** False when the control API has no lock (another implementation of the control API): runs are not kept apart. */
  readonly held: boolean;
  release(): Promise<void>;
}

interface Holder {
  readonly run_id?: unknown;
  readonly started_at?: unknown;
  readonly expires_at?: unknown;
}

/** Takes the target's lock for `runId` (waiting with `wait`), or throws TargetBusyError naming the run that holds it. */
export async function takeRunLock(o: LockOptions): Promise<HeldLock> {
  const url = `${o.controlUrl}/lock`;
  const lease = o.leaseSeconds ?? LEASE_SECONDS;
  const log = o.log ?? (() => {});
  const ask = (): Promise<HttpResponse> => o.client.send({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ run_id: o.runId, lease_seconds: lease }) })
    .catch((err: unknown) => {
      if (err instanceof TransportError) throw new UnreachableError(`cannot reach the target at CONTROL_URL ${o.controlUrl}: ${err.reason}`);
      throw err;
    });
  let waitedFor: string | undefined;
  for (;;) {
    const res = await ask();
    if (res.status === 200) break;
    if (res.status === 404 || res.status === 405) {
      log(`the control API at CONTROL_URL has no run lock (POST /lock answered ${res.status}): nothing keeps another run against this target from running at the same time`);
      return { held: false, release: async () => {} };
    }
    if (res.status !== 409) throw new UnreachableError(`the target at CONTROL_URL ${o.controlUrl} does not answer as a control API: POST /lock answered ${res.status} (docs/control-api.md)`);
    const holder = holderOf(res);
    if (!o.wait) throw new TargetBusyError(`the target is in use by ${describe(holder)}: two runs against one target reset and move its clock under each other; wait for it to end, or run with --wait`);
    if (waitedFor !== String(holder.run_id)) log(`waiting for ${describe(holder)} to end (--wait)`);
    waitedFor = String(holder.run_id);
    await sleep(WAIT_POLL_MS);
  }

  const renewal = setInterval(() => { ask().catch(() => undefined); }, (lease * 1000) / 3);
  renewal.unref();
  let released = false;
  const release = async (): Promise<void> => {
    if (released) return;
    released = true;
    clearInterval(renewal);
    for (const signal of SIGNALS) process.off(signal, onSignal);
    await o.client.send({ method: 'DELETE', url, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ run_id: o.runId }) }).catch(() => undefined);
  };
  // A run ended by a signal releases the lock too. When nothing else listens for the signal, the process would have
  // ended at once: it still ends, by the same signal, once the lock is released.
  const onSignal = (signal: NodeJS.Signals): void => {
    const alone = process.listenerCount(signal) === 1;
    const done = release();
    if (alone) void done.finally(() => process.kill(process.pid, signal));
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return { held: true, release };
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

function holderOf(res: HttpResponse): Holder {
  try {
    return JSON.parse(res.text) as Holder;
  } catch {
    return {};
  }
}

function describe(h: Holder): string {
  const started = typeof h.started_at === 'number' ? `, started at ${new Date(h.started_at * 1000).toISOString()}` : '';
  return `run ${typeof h.run_id === 'string' ? h.run_id : '(unnamed)'}${started}`;
}
