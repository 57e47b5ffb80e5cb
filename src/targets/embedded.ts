/**
 * The default target: the bundled emulator, started in this process for the run and stopped after it.
 * Its configuration comes from the same environment keys a remote run reads.
 */
import { startEmulator, type RunningEmulator } from '../emulator/index.js';
import type { TargetConfig } from './config.js';
import { targetFromEnv } from './from-env.js';

export interface EmbeddedTarget {
  readonly config: TargetConfig;
  readonly emulator: RunningEmulator;
  close(): Promise<void>;
}

export async function startEmbeddedTarget(options: { faults?: readonly string[]; seed?: number } = {}): Promise<EmbeddedTarget> {
  const emulator = await startEmulator({ faults: options.faults ?? [], ...(options.seed === undefined ? {} : { seed: options.seed }) });
  const config: TargetConfig = { ...targetFromEnv(emulator.env(), 'emulator') };
  return { config, emulator, close: () => emulator.close() };
}
