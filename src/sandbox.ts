/**
 * The programmatic entry of the emulator, `conformance-kit/emulator` (docs/sandbox.md): what an integration developer
 * needs to run their own tests against the reference emulator, in-process, without the command line.
 *
 * ```ts
 * import { startSandbox } from 'conformance-kit/emulator';
 * const sandbox = await startSandbox();              // a free port on 127.0.0.1
 * sandbox.settings.BASE_URL;                          // the settings `conformance emulator` prints
 * sandbox.faults.enable('token-type-mac');           // a fault switched on (FAULTS lists them)
 * await sandbox.reset();                              // back to the state the settings were made in
 * await sandbox.close();
 * ```
 */
import { emulatorSettings } from './cli/commands/emulator.js';
import { FAULTS, startEmulator, type EmulatorOptions, type FaultName, type RunningEmulator } from './emulator/index.js';

export { FAULTS, startEmulator, type EmulatorOptions, type FaultName, type RunningEmulator };

/**
 * Options of `startSandbox`: every option of `startEmulator` (host, port, faults, seed, ...), passed through as given,
 * so options `startEmulator` gains (allowed-variation switches) reach the sandbox without a change here.
 */
export type SandboxOptions = EmulatorOptions;

/** Faults of the running instance, by name (`FAULTS` describes each, with the rules that catch it). */
export interface SandboxFaults {
  enable(...names: FaultName[]): void;
  disable(...names: FaultName[]): void;
  /** The faults switched on now. */
  active(): string[];
}

export interface Sandbox {
  /** `http://127.0.0.1:<port>`: BASE_URL, AUTH_URL and CHAT_URL are all this address. */
  readonly url: string;
  /**
   * The settings `conformance emulator` prints (docs/design.md §4 keys plus the ones a staging account supplies:
   * LONG_LIVED_TOKEN, CHANNEL_ID_2, ADMIN_LOGIN, ...), secrets in full. They stay valid across `reset()`.
   */
  readonly settings: Readonly<Record<string, string>>;
  readonly faults: SandboxFaults;
  /**
   * Back to the state the settings were made in (`POST /_control/reset`): issued tokens other than the settings' own,
   * records written, chats, clock and faults (to the ones the sandbox started with) are gone; the settings work.
   */
  reset(): Promise<void>;
  /** The control API (docs/control-api.md), for what the sandbox object does not wrap: the clock, consent, lists. */
  control<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** The underlying instance, for what only it offers (`issuedSecrets()`, the raw `env()`). */
  readonly emulator: RunningEmulator;
  close(): Promise<void>;
}

/** Starts the emulator (on a free port unless `port` is given) and makes the settings a run or a client needs. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const emulator = await startEmulator({ port: 0, ...options });
  let settings: Record<string, string>;
  try {
    settings = await emulatorSettings(emulator);
  } catch (err) {
    await emulator.close();
    throw err;
  }
  const controlUrl = settings.CONTROL_URL!;
  const control = async <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${controlUrl}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`the emulator's control API ${method} ${path} answered ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const { faults } = emulator;
  return {
    url: emulator.url,
    settings: Object.freeze({ ...settings }),
    faults: {
      enable: (...names) => { for (const n of names) faults.enable(n); },
      disable: (...names) => { for (const n of names) faults.disable(n); },
      active: () => faults.active(),
    },
    reset: async () => { await control('POST', '/reset'); },
    control,
    emulator,
    close: () => emulator.close(),
  };
}
