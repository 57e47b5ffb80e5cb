/**
 * Before a remote run: is the service answering at each configured URL, and does it accept the settings? The
 * preflight (./preflight.ts) answers both in a few requests that change nothing; a transport failure or a target that
 * is not the service is an UnreachableError (exit 3), a setting the target refuses a ConfigError (exit 2).
 */
import type { TargetConfig } from '../model/target.js';
import type { HttpClient } from './http.js';
import { preflight, type PreflightResult } from './preflight.js';

export async function assertReachable(target: TargetConfig, client: HttpClient): Promise<PreflightResult> {
  return preflight(target, client);
}
