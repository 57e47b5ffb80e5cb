/**
 * What the kit knows about a target: its URLs, credentials and capabilities.
 * Built from the environment (docs/design.md §4) for a remote target, or from the emulator's own description.
 */
import type { Credentials, TargetConfig, TargetKind } from '../model/target.js';

export type { Credentials, TargetConfig, TargetKind };

/**
 * A key of docs/design.md §4. The keys are listed once, in src/needs/settings.ts (ENV_KEYS); test/needs/settings.test.ts
 * holds every key src/targets/from-env.ts reads to that list.
 */
export type EnvKey = string;
