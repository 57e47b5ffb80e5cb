/**
 * The messages between the kit and the emulator thread of an embedded target (src/targets/embedded.ts starts it,
 * src/targets/embedded-thread.ts answers). Plain structured-clone data only.
 */

/** What the thread starts: one emulator per entry, all with the same faults, variations and world seed. */
export interface ThreadStart {
  readonly instances: number;
  readonly faults: readonly string[];
  readonly variations: readonly string[];
  readonly seed?: number;
  /** src/emulator/shape.ts; default one-origin. */
  readonly shape?: 'one-origin' | 'deployed';
}

/** The options each instance of a start is made with. */
export function emulatorOptions(start: ThreadStart): { faults: readonly string[]; variations: readonly string[]; seed?: number; shape?: 'one-origin' | 'deployed' } {
  return { faults: start.faults, variations: start.variations, ...(start.seed === undefined ? {} : { seed: start.seed }), ...(start.shape ? { shape: start.shape } : {}) };
}

/** The instances, once they all listen: each one's URL and the docs/design.md §4 keys that describe it. */
export interface ThreadReady {
  readonly type: 'ready';
  readonly instances: readonly { readonly url: string; readonly env: Record<string, string> }[];
}

export interface ThreadFailed {
  readonly type: 'failed';
  readonly error: SerializedError;
}

export type ThreadCall =
  | { readonly id: number; readonly op: 'issued-secrets' }
  | { readonly id: number; readonly op: 'faults-set'; readonly change: { enable?: readonly string[]; disable?: readonly string[] } }
  | { readonly id: number; readonly op: 'faults-active' }
  | { readonly id: number; readonly op: 'close' };

/** A call before the caller numbers it. */
export type ThreadRequest = ThreadCall extends infer C ? (C extends unknown ? Omit<C, 'id'> : never) : never;

export type ThreadAnswer =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: SerializedError };

export interface SerializedError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

export function serializeError(err: unknown): SerializedError {
  const e = err as Error & { code?: unknown };
  return { name: e?.name ?? 'Error', message: e?.message ?? String(err), ...(typeof e?.code === 'string' ? { code: e.code } : {}) };
}

/** An error of the emulator thread, rebuilt on the kit's side with its name, message and code. */
export class EmulatorThreadError extends Error {
  readonly code: string;
  constructor(error: SerializedError) {
    super(error.message);
    this.name = error.name;
    this.code = error.code ?? 'ERR_EMULATOR_THREAD';
  }
}
