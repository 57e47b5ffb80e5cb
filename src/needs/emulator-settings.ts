/**
 * The settings `conformance emulator` prints (and the sandbox hands to an integrator's tests): the emulator's own keys
 * plus every group of the settings table made through its control API.
 */
import { Agent, fetch as undiciFetch } from 'undici';
import type { EmulatorApi } from './emulator-source.js';
import { EMULATOR_GROUPS } from './settings.js';

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

async function control<T>(fetch: Fetch, controlUrl: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${controlUrl}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`the emulator's control API ${method} ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

/**
 * The settings a remote run against this emulator needs: its own §4 keys, plus what a staging account's settings give
 * a run without a control API, each group made or read through the emulator's control API once as its row of the
 * settings table says (src/needs/settings.ts, src/needs/emulator-source.ts). So `conformance emulator > .env` with
 * CONTROL_URL removed runs the live paths. The state they were made in is then marked as the baseline
 * (`POST /_control/baseline`), so `POST /_control/reset` keeps every printed setting working.
 */
export async function emulatorSettings(emulator: { env(): Record<string, string>; readonly tls?: { readonly ca: string } | undefined }): Promise<Record<string, string>> {
  // Over https the emulator's own CA is trusted for these calls only.
  const trusting = trustingFetch(emulator.tls?.ca);
  try {
    return await settingsThrough(emulator.env(), trusting.fetch);
  } finally {
    await trusting.close();
  }
}

async function settingsThrough(env: Record<string, string>, fetch: Fetch): Promise<Record<string, string>> {
  const controlUrl = env.CONTROL_URL!;
  const api: EmulatorApi = { env, control: (method, path, body) => control(fetch, controlUrl, method, path, body) };
  const made: Record<string, string> = {};
  for (const group of EMULATOR_GROUPS) Object.assign(made, await group.emulator(api));
  // What was just made is part of the printed settings: a control reset returns to it, not to before it.
  await control(fetch, controlUrl, 'POST', '/baseline');
  return { ...env, ...made };
}

/** `fetch` trusting `ca` (the sandbox's own calls to its control API), leaving the process's global `fetch` as it is. */
export function trustingFetch(ca: string | undefined): { fetch: (url: string, init?: RequestInit) => Promise<Response>; close(): Promise<void> } {
  if (ca === undefined) return { fetch: (url, init) => fetch(url, init), close: async () => {} };
  const agent = new Agent({ connect: { ca } });
  return {
    // undici's own Response is the global one's twin; the types differ only by the package they come from.
    fetch: (url, init) => undiciFetch(url, { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>,
    close: () => agent.close(),
  };
}

/**
 * The settings of an emulator that may keep its state (`state`, src/emulator/state-file.ts): the ones kept from an
 * earlier start, with the instance's own keys as they are now, or, at the first start, the ones made now, then kept.
 */
export async function keptSettings(emulator: Parameters<typeof emulatorSettings>[0] & {
  readonly kept?: { settings(): Readonly<Record<string, string>> | undefined; keepSettings(s: Readonly<Record<string, string>>): Promise<void> } | undefined;
}): Promise<Record<string, string>> {
  const kept = emulator.kept?.settings();
  if (kept) return { ...kept, ...emulator.env() };
  const made = await emulatorSettings(emulator);
  await emulator.kept?.keepSettings(made);
  return made;
}
