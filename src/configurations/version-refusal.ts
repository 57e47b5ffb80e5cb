/**
 * The one line a run whose configured channel refused its hook version gets (CHANNEL_HOOK_API_VERSION, issue 37).
 */
import type { RuleResult } from '../model/result.js';

/** The setting a connect refused for its version names (src/steps/chat.ts `versionRefusalLine`). */
const VERSION_SETTING = 'set CHANNEL_HOOK_API_VERSION to the version they hold';

/**
 * One line for a run whose configured channel refused the connect for its hook version, instead of a run of skipped
 * rules to read: what the connect asked for, and the rules the refused connect left unjudged, counted (the connect
 * rule itself, which names the setting in its failure, ran).
 */
export function versionRefusalOf(results: readonly RuleResult[]): string | undefined {
  const hit = results.filter((r) => r.detail.includes(VERSION_SETTING));
  if (hit.length === 0) return undefined;
  const detail = hit[0]!.detail;
  const behind = hit.filter((r) => r.status === 'skipped' || r.status === 'errored').length;
  return `the configured channel refused the connect: ${detail.slice(detail.lastIndexOf('the connect asked for'))} (${behind} rule${behind === 1 ? '' : 's'} could not run behind it)`;
}
