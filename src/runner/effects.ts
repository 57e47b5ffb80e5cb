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

/**
 * Probes until `until` holds (then at once) or the window has passed (then after one last probe sent at or after its
 * end). A probe sent before the end and answered after it may have looked at the target before the end: on a loaded
 * machine one slow probe could span the whole window, and an effect due within it was then never looked for after it
 * came (issue 39: a history 400 ms late, read once in a probe of a second under the embedded emulator's 1 s window).
 */
export async function poll<T>(probe: () => Promise<T>, until: (value: T) => boolean, windowMs: number): Promise<Observed<T>> {
  const started = Date.now();
  let interval = FIRST_INTERVAL_MS;
  for (let polls = 1; ; polls += 1) {
    const sentAt = Date.now() - started;
    const value = await probe();
    const waitedMs = Date.now() - started;
    if (until(value)) return { seen: true, value, polls, waitedMs };
    if (sentAt >= windowMs) return { seen: false, value, polls, waitedMs };
    await sleep(Math.max(0, Math.min(interval, windowMs - waitedMs)));
    interval = Math.min(interval * GROWTH, MAX_INTERVAL_MS);
  }
}
