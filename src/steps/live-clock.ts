/**
 * Time passing on the target (the `clock` need, src/needs/catalogue.ts). With a control API the target's clock is moved
 * (and put back whatever happens); without one, under --profile soak, the kit waits in real time, from the moment the
 * credential was issued, up to the soak window (src/needs/plan.ts SOAK_WINDOW_SECONDS); longer waits are skipped
 * saying so. The waits are scheduled
 * against an injectable clock, so that their logic is tested with fake timers rather than 21 real minutes.
 */
import { Precondition } from '../errors.js';
import type { RuleContext } from '../model/context.js';

export interface Timers {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

export interface Elapse {
  /** Seconds that must have passed since `sinceMs` when `act` runs. */
  readonly seconds: number;
  /** When the credential was issued (real time, ms); default: now. */
  readonly sinceMs?: number;
  /**
   * Seconds after `sinceMs` past which the act would observe something else (a code due at 19 minutes, sent after 20,
   * is expired whatever the target does): reaching it ends the rule as errored, not as a verdict.
   */
  readonly beforeSeconds?: number;
  readonly timers?: Timers;
}

const clockOf = (ms: number) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * Waits in real time until `seconds` after `sinceMs`, then acts; refuses to act after `beforeSeconds`. The sleeps are
 * chunked so that a machine that slept (a suspended laptop) does not overshoot silently: the deadline is checked on
 * the clock, not assumed from the sleep.
 */
export async function inRealTime<T>(e: Elapse, act: () => Promise<T>): Promise<T> {
  const timers = e.timers ?? realTimers;
  const since = e.sinceMs ?? timers.now();
  const due = since + e.seconds * 1000;
  for (let left = due - timers.now(); left > 0; left = due - timers.now()) await timers.sleep(Math.min(left, 60_000));
  const late = timers.now() - since;
  if (e.beforeSeconds !== undefined && late > e.beforeSeconds * 1000) {
    throw new Precondition(`the step was due ${clockOf(e.seconds * 1000)} after issue but could only run at ${clockOf(late)}, after ${clockOf(e.beforeSeconds * 1000)}, when it no longer observes the same thing`);
  }
  return act();
}

/**
 * Lets `seconds` pass on the target, then acts: the control API's clock when the target has one, else real time under
 * --profile soak when the wait fits its window; else the rule is skipped with the setting that would let it run.
 */
export async function afterElapsed<T>(t: RuleContext, e: Elapse, act: () => Promise<T>): Promise<T> {
  return (await t.need('clock', { soakSeconds: e.seconds, why: `${Math.round(e.seconds)} s must pass` })).after(e, act);
}

/**
 * The target's clock in Unix seconds: read through the control API when there is one (it may have been advanced),
 * else the kit's own (a staging service's clock is taken to be right; the checks that use it allow minutes).
 */
export async function targetNow(t: RuleContext): Promise<number> {
  return t.target.capabilities.includes('control') ? t.control.now() : Math.floor(Date.now() / 1000);
}

/**
 * The clock server_time is judged against (REQ-2.3-server-time): the target's control clock within 5 s, else the kit's
 * clock within 300 s (the target's clock may differ from ours by minutes).
 */
export async function serverTimeArgs(t: RuleContext): Promise<[now: number, toleranceS: number]> {
  const control = t.target.capabilities.includes('control');
  return [await targetNow(t), control ? 5 : 300];
}
