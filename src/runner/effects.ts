/**
 * Waiting for asynchronous effects (docs/verdicts.md): a poll that returns as soon as the effect shows, with a short
 * interval that grows a little, and the window a rule asks for, capped by what the target says of itself.
 */
import type { Observed } from '../model/context.js';
import type { TargetConfig } from '../model/target.js';
import { EMULATOR_EFFECT_WINDOW_MS } from '../effect-window.js';

const FIRST_INTERVAL_MS = 25;
const GROWTH = 1.5;
const MAX_INTERVAL_MS = 1_000;

/** The window the kit watches for an effect a rule allows `within` milliseconds for, on this target. */
export function effectWindowMs(target: Pick<TargetConfig, 'kind' | 'effectWindowMs'>, within: number): number {
  const cap = target.effectWindowMs ?? (target.kind === 'emulator' ? EMULATOR_EFFECT_WINDOW_MS : undefined);
  return cap === undefined ? within : Math.min(within, cap);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Probes until `until` holds (then at once) or the window has passed (then after one last probe at its end). */
export async function poll<T>(probe: () => Promise<T>, until: (value: T) => boolean, windowMs: number): Promise<Observed<T>> {
  const started = Date.now();
  let interval = FIRST_INTERVAL_MS;
  for (let polls = 1; ; polls += 1) {
    const value = await probe();
    const waitedMs = Date.now() - started;
    if (until(value)) return { seen: true, value, polls, waitedMs };
    const left = windowMs - waitedMs;
    if (left <= 0) return { seen: false, value, polls, waitedMs };
    await sleep(Math.min(interval, left));
    interval = Math.min(interval * GROWTH, MAX_INTERVAL_MS);
  }
}
