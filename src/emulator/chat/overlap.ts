/**
 * Whether a request overlapped another one on the same record, for the race faults of the chat interface. The emulator
 * runs each handler to its end before the next, so requests never overlap by themselves: a request that asks holds the
 * shared race window (src/emulator/race-window.ts) until a second one for the same key reaches it, as parallel
 * requests to a store without a lock would interleave. The request that arrives while another holds the key is the one
 * that overlapped it; a lone request waits the window out and overlapped nothing.
 */
import type { EmulatorContext } from '../context.js';
import { raceWindow } from '../race-window.js';

const IN_FLIGHT = new WeakMap<EmulatorContext, Map<string, number>>();

export async function overlapped(ctx: EmulatorContext, key: string): Promise<boolean> {
  let inFlight = IN_FLIGHT.get(ctx);
  if (!inFlight) IN_FLIGHT.set(ctx, (inFlight = new Map()));
  const before = inFlight.get(key) ?? 0;
  inFlight.set(key, before + 1);
  try {
    await raceWindow(ctx).hold(key);
  } finally {
    const left = (inFlight.get(key) ?? 1) - 1;
    if (left > 0) inFlight.set(key, left);
    else inFlight.delete(key);
  }
  return before > 0;
}
