/**
 * A set of named behaviour switches of one emulator instance: the fault switches (src/emulator/faults.ts, behaviours
 * the spec forbids, each proving rules can fail) and the variation switches (src/emulator/variations.ts, behaviours
 * the spec allows, each proving rules do not fail a correct server). Both are switched the same way: at start, through
 * the running emulator, or through the control API; a control reset returns to the set given at start. Each emulator
 * area declares its rows beside the code that reads them (<area>/faults.ts, <area>/variations.ts).
 */

export interface FaultInfo {
  readonly name: string;
  readonly description: string;
  /** Rule ids that fail (or, for `info` rules, report differently) when this fault alone is on. */
  readonly caughtBy: readonly string[];
  /**
   * `non_strict` for a departure the reading judges a lesser one (docs/verdicts.md): the rules name it non_strict
   * instead of failing. Such a fault does not count as the fault that proves a rule can fail.
   */
  readonly verdict?: 'non_strict';
}

export interface VariationInfo {
  readonly name: string;
  /** What the emulator does differently when it is on. */
  readonly description: string;
  /** Why a correct server may do it: the reading (docs/verdicts.md) and the spec's words it rests on. */
  readonly basis: string;
  /**
   * How the suite must run to judge it truthfully: `fullWindows` lifts the embedded emulator's 1 s cap on effect
   * windows, for a variation whose effects come late (a real service's are not instant). `shapes`: the emulator shapes
   * the suite runs it on (src/emulator/shape.ts; default one-origin), for a variation of where things are served.
   */
  readonly run?: { readonly fullWindows?: boolean; readonly shapes?: readonly ('one-origin' | 'deployed')[] };
}

/** Keeps each row's literal type, so that the names of all tables form one union (FaultName, VariationName). */
export const defineFaults = <const T extends readonly FaultInfo[]>(list: T): T => list;
export const defineVariations = <const T extends readonly VariationInfo[]>(list: T): T => list;

export class UnknownSwitchError extends Error {
  readonly code = 'ERR_UNKNOWN_SWITCH';
  constructor(readonly kind: string, readonly unknown: readonly string[]) {
    super(`unknown ${kind}${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  }
}

export class Switches<N extends string> {
  readonly #on = new Set<N>();
  readonly #known: readonly N[];
  readonly #initial: readonly string[];
  readonly #watchers = new Set<(name: string) => void>();

  constructor(readonly kind: string, known: readonly N[], initial: readonly string[] = []) {
    this.#known = known;
    this.#initial = [...initial];
    this.set({ enable: initial });
  }

  isOn(name: N): boolean {
    for (const watcher of this.#watchers) watcher(name);
    return this.#on.has(name);
  }

  /**
   * Tells `watcher` of every switch asked about, on or off: a request that never asks about a switch is answered the
   * same whether it is on or not, so a trace of the questions shows which requests (and so which rules) a switch can
   * reach (test/variations/ runs each variation against those rules only). Returns the way to stop watching.
   */
  watch(watcher: (name: string) => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  enable(name: string): void {
    this.set({ enable: [name] });
  }

  disable(name: string): void {
    this.set({ disable: [name] });
  }

  /** Sorted in registry order, so answers are stable. */
  active(): string[] {
    return this.#known.filter((n) => this.#on.has(n));
  }

  /** All or nothing: one unknown name rejects the whole change, so a typo never leaves a half-applied set. */
  set(change: { enable?: readonly string[]; disable?: readonly string[] }): void {
    const names = [...(change.enable ?? []), ...(change.disable ?? [])];
    const unknown = names.filter((n) => !this.#known.includes(n as N));
    if (unknown.length > 0) throw new UnknownSwitchError(this.kind, [...new Set(unknown)]);
    for (const n of change.enable ?? []) this.#on.add(n as N);
    for (const n of change.disable ?? []) this.#on.delete(n as N);
  }

  clear(): void {
    this.#on.clear();
  }

  /** Back to the switches given at start (a control reset). */
  restore(): void {
    this.#on.clear();
    this.set({ enable: this.#initial });
  }
}
