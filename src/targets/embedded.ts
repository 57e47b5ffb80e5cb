/**
 * The default target: the bundled emulator, started for the run and stopped after it. Its configuration comes from
 * the same environment keys a remote run reads.
 *
 * The emulator runs on a worker thread of its own by default, so that the kit and the emulator each get a core
 * instead of sharing one event loop; everything a rule does still goes over HTTP (the control API included), and the
 * few things tests ask of the emulator object itself (issued secrets, fault switches) go over the worker's port.
 * A second instance, the sandbox, takes the `exclusive` rules (they move the clock or change keys), so that they run
 * beside the others instead of alone after them.
 */
import { Worker } from 'node:worker_threads';
import type { TargetConfig } from '../model/target.js';
import { EmulatorThreadError, emulatorOptions, type ThreadAnswer, type ThreadFailed, type ThreadRequest, type ThreadReady, type ThreadStart } from './embedded-protocol.js';
import { targetFromEnv } from './from-env.js';

export interface FaultChange {
  readonly enable?: readonly string[];
  readonly disable?: readonly string[];
}

/** The emulator behind an embedded target, whichever thread it runs on. */
export interface EmbeddedEmulator {
  /** The main instance, e.g. http://127.0.0.1:4010, no trailing slash. */
  readonly url: string;
  /** The docs/design.md §4 keys of the main instance, as they were when it started. */
  env(): Record<string, string>;
  /** Every secret any instance (the sandbox included) issued or holds, for leak checks on reports. */
  issuedSecrets(): Promise<string[]>;
  /** Switches faults on every instance (all or nothing, as `FaultSwitches.set`); answers the active ones. */
  setFaults(change: FaultChange): Promise<string[]>;
  activeFaults(): Promise<string[]>;
  close(): Promise<void>;
}

export interface EmbeddedTarget {
  /** The main instance, with the sandbox under `sandbox` when there is one. */
  readonly config: TargetConfig;
  /** The configuration read again (after Chromium was installed, the browser capability changes), sandbox included. */
  reconfigure(): TargetConfig;
  readonly emulator: EmbeddedEmulator;
  close(): Promise<void>;
}

export interface EmbeddedTargetOptions {
  /** Faults switched on from the start on every instance (and restored by a control reset). Unknown names throw. */
  readonly faults?: readonly string[];
  /** Allowed variations switched on from the start on every instance (src/emulator/variations.ts). */
  readonly variations?: readonly string[];
  /** Makes the non-secret world (ids, subdomain) reproducible; secrets are always random. */
  readonly seed?: number;
  /**
   * `worker` (the default): the emulator runs on a worker thread. `main`: in the calling thread, where one CPU
   * profile sees the kit and the emulator together.
   */
  readonly thread?: 'worker' | 'main';
  /** A second instance for the `exclusive` rules (default on). */
  readonly sandbox?: boolean;
  /** Where each interface is served (src/emulator/shape.ts); default one-origin. */
  readonly shape?: 'one-origin' | 'deployed';
}

interface Instances {
  readonly described: readonly { readonly url: string; readonly env: Record<string, string> }[];
  readonly emulator: Omit<EmbeddedEmulator, 'url' | 'env'>;
}

export async function startEmbeddedTarget(options: EmbeddedTargetOptions = {}): Promise<EmbeddedTarget> {
  const start: ThreadStart = { instances: options.sandbox === false ? 1 : 2, faults: options.faults ?? [], variations: options.variations ?? [], ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.shape ? { shape: options.shape } : {}) };
  const { described, emulator } = options.thread === 'main' ? await inThisThread(start) : await inWorker(start);
  const configure = (): TargetConfig => {
    const [main, sandbox] = described.map((d) => targetFromEnv(d.env, 'emulator'));
    return { ...main!, ...(sandbox ? { sandbox } : {}) };
  };
  const env = described[0]!.env;
  const full: EmbeddedEmulator = { url: described[0]!.url, env: () => ({ ...env }), ...emulator };
  return { config: configure(), reconfigure: configure, emulator: full, close: () => full.close() };
}

async function inThisThread(start: ThreadStart): Promise<Instances> {
  // Imported here so that a kit with the emulator on a worker does not load the emulator's modules itself.
  const { startEmulator } = await import('../emulator/index.js');
  const emulators = await Promise.all(Array.from({ length: start.instances }, () => startEmulator(emulatorOptions(start))));
  let closing: Promise<void> | undefined;
  return {
    described: emulators.map((e) => ({ url: e.url, env: e.env() })),
    emulator: {
      issuedSecrets: async () => [...new Set(emulators.flatMap((e) => e.issuedSecrets()))],
      setFaults: async (change) => {
        // Checked on the first before any is changed: an unknown name leaves every instance as it was.
        for (const e of emulators) e.faults.set(change);
        return emulators[0]!.faults.active();
      },
      activeFaults: async () => emulators[0]!.faults.active(),
      close: () => (closing ??= Promise.all(emulators.map((e) => e.close())).then(() => undefined)),
    },
  };
}

async function inWorker(start: ThreadStart): Promise<Instances> {
  const worker = new Worker(new URL('./embedded-worker.mjs', import.meta.url), { workerData: start });
  const pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  let nextId = 0;
  let dead: Error | undefined;

  const ready = new Promise<ThreadReady>((resolve, reject) => {
    const onMessage = (m: ThreadReady | ThreadFailed | ThreadAnswer) => {
      if ('type' in m) {
        worker.off('message', onMessage);
        if (m.type === 'ready') resolve(m);
        else reject(new EmulatorThreadError(m.error));
      }
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new EmulatorThreadError({ name: 'Error', message: `the emulator thread exited (${code}) before it listened` })));
  });
  worker.on('message', (m: ThreadAnswer | ThreadReady | ThreadFailed) => {
    if ('type' in m) return;
    const call = pending.get(m.id);
    pending.delete(m.id);
    if (m.ok) call?.resolve(m.value);
    else call?.reject(new EmulatorThreadError(m.error));
  });
  const fail = (err: Error) => {
    dead ??= err;
    for (const call of pending.values()) call.reject(err);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new EmulatorThreadError({ name: 'Error', message: `the emulator thread exited (${code})`, code: 'ERR_EMULATOR_GONE' })));

  const call = <T>(message: ThreadRequest): Promise<T> => {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...message, id });
    });
  };

  try {
    const { instances } = await ready;
    let closing: Promise<void> | undefined;
    return {
      described: instances,
      emulator: {
        issuedSecrets: () => call<string[]>({ op: 'issued-secrets' }),
        setFaults: (change) => call<string[]>({ op: 'faults-set', change }),
        activeFaults: () => call<string[]>({ op: 'faults-active' }),
        close: () => (closing ??= (dead ? Promise.resolve() : call<void>({ op: 'close' }).catch(() => undefined)).then(async () => {
          await worker.terminate();
        })),
      },
    };
  } catch (err) {
    await worker.terminate();
    throw err;
  }
}
