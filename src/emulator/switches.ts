/**
 * A set of named behaviour switches of one emulator instance: the fault switches (src/emulator/faults.ts, behaviours
 * the spec forbids, each proving rules can fail) and the variation switches (src/emulator/variations.ts, behaviours
 * the spec allows, each proving rules do not fail a correct server). Both are switched the same way: at start, through
 * the running emulator, or through the control API; a control reset returns to the set given at start.
 */

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

  constructor(readonly kind: string, known: readonly N[], initial: readonly string[] = []) {
    this.#known = known;
    this.#initial = [...initial];
    this.set({ enable: initial });
  }

  isOn(name: N): boolean {
    return this.#on.has(name);
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
