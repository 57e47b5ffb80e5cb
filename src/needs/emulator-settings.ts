/**
 * The settings `conformance emulator` prints (and the sandbox hands to an integrator's tests): the emulator's own keys
 * plus every group of the settings table made through its control API.
 */
import type { EmulatorApi } from './emulator-source.js';
import { EMULATOR_GROUPS } from './settings.js';

async function control<T>(controlUrl: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
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
export async function emulatorSettings(emulator: { env(): Record<string, string> }): Promise<Record<string, string>> {
  const env = emulator.env();
  const controlUrl = env.CONTROL_URL!;
  const api: EmulatorApi = { env, control: (method, path, body) => control(controlUrl, method, path, body) };
  const made: Record<string, string> = {};
  for (const group of EMULATOR_GROUPS) Object.assign(made, await group.emulator(api));
  // What was just made is part of the printed settings: a control reset returns to it, not to before it.
  await control(controlUrl, 'POST', '/baseline');
  return { ...env, ...made };
}
