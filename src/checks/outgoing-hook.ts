/**
 * Checks of the outgoing-message hooks one manager message sent (§2.4, §6, §9), as the control API's hooks log shows
 * them (src/steps/outgoing-hooks.ts reads it).
 */
import type { Judge } from '../model/check.js';
import { fail, observed, pass } from '../model/outcome.js';

/** One entry of the hooks log; only what the checks read. */
export interface OutgoingHook {
  readonly hook_api_version?: unknown;
  readonly msgid?: unknown;
  /** The hook's body as sent, when the log carries it. */
  readonly payload?: unknown;
}

/** The hooks of one manager message, on the connection that chose `version`. */
export interface VersionedHooks {
  readonly version: string;
  readonly hooks: readonly OutgoingHook[];
}

const shownVersion = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? 'no hook_api_version' : JSON.stringify(v));

/**
 * §6: the outgoing hook goes to the address of the connection's hook_api_version; §9: the format is chosen per
 * connected channel. Every hook the message sent went with that version, and at least one was sent.
 */
export const hookWentWithItsVersion: Judge<VersionedHooks> = ({ version, hooks }) => {
  const name = `hook ${version}`;
  if (hooks.length === 0) return fail(name, `expected an outgoing-message hook for the manager's message on the ${version} connection, observed none within the window`);
  const other = hooks.filter((h) => h.hook_api_version !== version);
  return other.length === 0
    ? pass(name, `${hooks.length === 1 ? 'the hook' : `all ${hooks.length} hooks`} of the ${version} connection went with ${version}`)
    : fail(name, `expected the hook of the ${version} connection to go with ${version}, observed ${[...new Set(other.map((h) => shownVersion(h.hook_api_version)))].join(', ')}`);
};

/** How deep the payload's keys are listed: the envelope and one level inside it. */
const KEY_DEPTH = 2;

function keyPaths(value: unknown, depth: number, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || depth === 0) return prefix ? [prefix] : [];
  const keys = Object.keys(value).sort();
  if (keys.length === 0) return prefix ? [`${prefix}{}`] : [];
  return keys.flatMap((k) => keyPaths((value as Record<string, unknown>)[k], depth - 1, prefix ? `${prefix}.${k}` : k));
}

/**
 * §6 "Payload of outgoing-message hooks (v1, v2): not shown": records the keys of the first hook's payload (two
 * levels deep, dotted), or that the log carries none.
 */
export const hookPayloadKeys: Judge<VersionedHooks> = ({ version, hooks }) => {
  const name = `${version} payload`;
  const first = hooks[0];
  if (!first) return observed(name, `no hook of the ${version} connection to read`);
  const { payload } = first;
  if (payload === undefined) return observed(name, 'the hooks log carries no payload');
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return observed(name, `not a JSON object: ${Array.isArray(payload) ? 'an array' : typeof payload}`);
  const paths = keyPaths(payload, KEY_DEPTH);
  return observed(name, paths.length === 0 ? 'an empty object' : `keys ${paths.join(', ')}`);
};
