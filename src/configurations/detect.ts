/**
 * Which configuration of the table (./table.ts) a run's settings make, or the closest one and how the settings differ
 * from it: report.json's `configuration` and the run's header line.
 */
import type { TargetConfig } from '../model/target.js';
import { runCredentials } from '../needs/credentials.js';
import type { SupplyPlan } from '../needs/plan.js';
import { CONFIGURATIONS, type Configuration, type SettingCondition } from './table.js';

export interface DetectedConfiguration {
  readonly [key: string]: unknown;
  readonly name: string;
  readonly title: string;
  /** True when every setting of the configuration is as its row says; else `differences` says how this run differs. */
  readonly exact: boolean;
  readonly differences: readonly string[];
  readonly changes: readonly string[];
  readonly lacks: readonly string[];
  readonly missing: readonly string[];
  /** The credential kind "the run's access token" is in this run (src/needs/credentials.ts). */
  readonly access_token: string;
  /** The hook version every connect of the run asks for (CHANNEL_HOOK_API_VERSION, default v1). */
  readonly hook_api_version: string;
}

function differenceOf(c: SettingCondition, target: TargetConfig): string | undefined {
  const value = c.key === 'CONTROL_URL' ? target.controlUrl : target.settings?.[c.key];
  if (!c.present) return value === undefined ? undefined : `${c.key} is set`;
  if (value === undefined) return `${c.key} is not set`;
  if (c.value !== undefined && value !== c.value) return `${c.key} is ${value}, not ${c.value}`;
  return undefined;
}

function differences(c: Configuration, target: TargetConfig): string[] {
  const out: string[] = [];
  if (c.target !== target.kind) out.push(`the target is ${target.kind === 'emulator' ? 'the embedded emulator' : 'remote'}`);
  for (const s of c.settings) {
    const d = differenceOf(s, target);
    if (d) out.push(d);
  }
  if ((target.interactive === true) !== c.operator) out.push(target.interactive ? 'an operator can be asked at the terminal' : 'no operator can be asked');
  return out;
}

/** The configuration of the table the target's settings make, else the one they differ from least (table order on a tie). */
export function configurationOf(plan: SupplyPlan): DetectedConfiguration {
  const target = plan.target;
  // A target of another kind is never the closest: the embedded target is its own configuration.
  const candidates = CONFIGURATIONS.filter((c) => c.target === target.kind);
  let best = candidates[0]!;
  let bestDiff = differences(best, target);
  for (const c of candidates.slice(1)) {
    const d = differences(c, target);
    if (d.length < bestDiff.length) [best, bestDiff] = [c, d];
  }
  return {
    name: best.name,
    title: best.title,
    exact: bestDiff.length === 0,
    differences: bestDiff,
    changes: best.changes,
    lacks: best.lacks,
    missing: best.missing,
    access_token: runCredentials(plan).access_token,
    hook_api_version: target.credentials.channelHookApiVersion ?? 'v1',
  };
}

/** The run's header line: the configuration, how the settings differ from it, the run's access token and hook version. */
export function configurationLine(d: DetectedConfiguration, words: (kind: string) => string): string {
  const how = d.exact ? '' : ` (closest; ${d.differences.join(', ')})`;
  return `configuration: ${d.name}${how}; the run's access token: ${words(d.access_token)}; connects ask for hook_api_version ${d.hook_api_version}`;
}
