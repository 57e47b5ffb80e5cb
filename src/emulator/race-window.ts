/**
 * What the race faults stand for: a read and a write to a store with a round trip between them, and no lock. A fixed
 * pause only makes parallel requests race when they happen to arrive within it (on a loaded machine they may not),
 * so the window stays open until a second request for the same record reaches it, or a second passes: parallel
 * requests then always interleave between read and write, as they can on a store without a lock.
 */
import type { EmulatorContext } from './context.js';

export class RaceWindow {
  readonly #waiting = new Map<string, () => void>();

  constructor(private readonly maxMs = 1000) {}

  /** Resolves when another request holds the window for `key` too, or after `maxMs`. */
  hold(key: string): Promise<void> {
    const other = this.#waiting.get(key);
    if (other) {
      this.#waiting.delete(key);
      other();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(key);
        resolve();
      }, this.maxMs);
      this.#waiting.set(key, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

const WINDOWS = new WeakMap<EmulatorContext, RaceWindow>();

/** The race window of one emulator. */
export function raceWindow(ctx: EmulatorContext): RaceWindow {
  let w = WINDOWS.get(ctx);
  if (!w) WINDOWS.set(ctx, (w = new RaceWindow()));
  return w;
}
