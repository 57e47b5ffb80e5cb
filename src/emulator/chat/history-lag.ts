/**
 * The `chat-history-lags` variation: the history shows a write a while after it was answered, as §4.3 allows ("Response
 * 200 (accepted for processing; the message appears after processing)"). A new message is missing from the history,
 * and an edited one shows its previous content, for HISTORY_LAG_MS of wall-clock time after the answer (not the
 * emulator's clock, which the control API may move: the kit waits in real time).
 */

/** Long enough that one read right after the answer misses the write, short enough for a run of every chat rule. */
export const HISTORY_LAG_MS = 400;

/** A stored message as this module sees it (structurally, so that it imports nothing of the chat state). */
interface Lagged {
  readonly content: unknown;
}

interface Pending {
  readonly until: number;
  /** The content shown while the edit is being processed; none for a new message (not shown yet). */
  readonly before?: unknown;
}

const pending = new WeakMap<Lagged, Pending>();

/** A new message was stored: the history leaves it out for a while. */
export function lagNew(m: Lagged): void {
  pending.set(m, { until: Date.now() + HISTORY_LAG_MS });
}

/** A message was edited: the history shows what it held before for a while. */
export function lagEdit<M extends Lagged>(m: M, before: M['content']): void {
  const earlier = pending.get(m);
  const inFlight = earlier !== undefined && earlier.until > Date.now();
  // A write still being processed keeps what the history showed before it: nothing for a new message, the first
  // content for an edit.
  const shown = inFlight ? earlier.before : before;
  pending.set(m, { until: Date.now() + HISTORY_LAG_MS, ...(shown !== undefined && { before: shown }) });
}

/** The messages as the history shows them now: those still being processed left out, edits still being processed as before. */
export function processed<M extends Lagged>(messages: readonly M[]): M[] {
  const now = Date.now();
  const out: M[] = [];
  for (const m of messages) {
    const p = pending.get(m);
    if (!p || p.until <= now) out.push(m);
    else if (p.before !== undefined) out.push({ ...m, content: p.before });
  }
  return out;
}
