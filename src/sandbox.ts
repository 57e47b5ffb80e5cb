/**
 * The programmatic entry of the emulator, `conformance-kit/emulator` (docs/sandbox.md): what an integration developer
 * needs to run their own tests against the reference emulator, in-process, without the command line.
 *
 * ```ts
 * import { startSandbox } from 'conformance-kit/emulator';
 * const sandbox = await startSandbox();              // a free port on 127.0.0.1
 * sandbox.settings.BASE_URL;                          // the settings `conformance emulator` prints
 * sandbox.faults.enable('token-type-mac');           // a fault switched on (FAULTS lists them)
 * sandbox.variations.enable('json-members-reordered'); // an allowed variation (VARIATIONS lists them)
 * await sandbox.reset();                              // back to the state the settings were made in
 * await sandbox.close();
 * ```
 */
import { keptSettings, trustingFetch } from './needs/emulator-settings.js';
import {
  DEFAULT_ACCOUNT_DOMAIN, FAULTS, lookupUnder, startEmulator, VARIATIONS, type EmulatorOptions, type EmulatorTls, type FaultName,
  type HttpsOptions, type RunningEmulator, type VariationName,
} from './emulator/index.js';
import type { Switches } from './emulator/switches.js';

export {
  DEFAULT_ACCOUNT_DOMAIN, FAULTS, lookupUnder, startEmulator, VARIATIONS, type EmulatorOptions, type EmulatorTls, type FaultName,
  type HttpsOptions, type RunningEmulator, type VariationName,
};

/**
 * Options of `startSandbox`: every option of `startEmulator` (host, port, faults, variations, seed, https, ...), passed
 * through as given, but `acceptMachineTime`, on unless set to false: the sandbox's chat clients sign with their
 * machine's clock, which moving the sandbox clock does not move.
 */
export type SandboxOptions = EmulatorOptions;

/** Switches of the running instance, by name: faults (`FAULTS`) or allowed variations (`VARIATIONS`). */
export interface SandboxSwitches<N extends string> {
  enable(...names: N[]): void;
  disable(...names: N[]): void;
  /** The switches on now. */
  active(): string[];
}

/** Faults of the running instance (`FAULTS` describes each, with the rules that catch it). */
export type SandboxFaults = SandboxSwitches<FaultName>;

function switchesOf<N extends string>(switches: Switches<N>): SandboxSwitches<N> {
  return {
    enable: (...names) => { for (const n of names) switches.enable(n); },
    disable: (...names) => { for (const n of names) switches.disable(n); },
    active: () => switches.active(),
  };
}

export interface Sandbox {
  /**
   * `http://127.0.0.1:<port>` (`https://` with `https`): on the one-origin shape (the default) BASE_URL, AUTH_URL and
   * CHAT_URL are all this address; on the deployed one AUTH_URL and CONTROL_URL are, and each account and the chat
   * interface have a port of their own (`settings`). Every URL of `settings` is reachable as printed, with no resolver.
   */
  readonly url: string;
  /** With `https`: the CA a client trusts (`ca` PEM, `caFile` for `NODE_EXTRA_CA_CERTS` or curl's `--cacert`). */
  readonly tls: EmulatorTls | undefined;
  /**
   * An account's own address by host name, `https://<subdomain>.sandbox.localhost:<port>` (the main account's when no
   * subdomain is given), for a client that builds its URLs from a subdomain. The name resolves through `lookup`.
   */
  accountUrl(subdomain?: string): string;
  /**
   * A `dns.lookup` that resolves the accounts' host names to the sandbox and any other name as usual: an agent's
   * `lookup` (`new https.Agent({ ca, lookup })`, undici's `new Agent({ connect: { ca, lookup } })`).
   */
  readonly lookup: RunningEmulator['lookup'];
  /**
   * The settings `conformance emulator` prints (docs/design.md §4 keys plus the ones a staging account supplies:
   * LONG_LIVED_TOKEN, CHANNEL_ID_2, ADMIN_LOGIN, ...), secrets in full. They stay valid across `reset()`, and with
   * `state` across restarts.
   */
  readonly settings: Readonly<Record<string, string>>;
  readonly faults: SandboxFaults;
  /** Behaviours the spec allows that the emulator does not show by default (`VARIATIONS`, docs/variations.md). */
  readonly variations: SandboxSwitches<VariationName>;
  /**
   * Back to the state the settings were made in (`POST /_control/reset`): issued tokens other than the settings' own,
   * records written, chats, clock, faults and variations (to the ones the sandbox started with) are gone; the settings
   * work.
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
  const emulator = await startEmulator({ port: 0, acceptMachineTime: true, ...options });
  // The sandbox's own calls trust its CA; the process's `fetch` is left as the integrator set it.
  const trusting = trustingFetch(emulator.tls?.ca);
  const call = trusting.fetch;
  let closing: Promise<void> | undefined;
  const closeAll = () => (closing ??= emulator.close().then(() => trusting.close()));
  let settings: Record<string, string>;
  try {
    settings = await keptSettings(emulator);
  } catch (err) {
    await closeAll();
    throw err;
  }
  const controlUrl = settings.CONTROL_URL!;
  const control = async <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> => {
    const res = await call(`${controlUrl}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`the emulator's control API ${method} ${path} answered ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    url: emulator.url,
    tls: emulator.tls,
    accountUrl: (subdomain) => emulator.accountUrl(subdomain),
    lookup: emulator.lookup,
    settings: Object.freeze({ ...settings }),
    faults: switchesOf(emulator.faults),
    variations: switchesOf(emulator.variations),
    reset: async () => { await control('POST', '/reset'); },
    control,
    emulator,
    close: closeAll,
  };
}
