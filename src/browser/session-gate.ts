/**
 * Who may use the run's one browser context, and with which session: any number of rules at once with the shared
 * login session, or one rule alone without any (its cookies are cleared first). First come, first served, so a rule
 * that needs no session is not starved by a stream of logged-in ones, nor the reverse.
 */
export type SessionKind = 'logged-in' | 'none';

interface Waiter {
  readonly kind: SessionKind;
  readonly admit: (release: () => void) => void;
}

export class SessionGate {
  #holders = 0;
  #kind: SessionKind | undefined;
  readonly #queue: Waiter[] = [];

  /** Resolves with the release function once `kind` may use the context. */
  acquire(kind: SessionKind): Promise<() => void> {
    return new Promise((admit) => {
      this.#queue.push({ kind, admit });
      this.#pump();
    });
  }

  /** How many rules hold the context, and with which kind (for tests and diagnostics). */
  get state(): { readonly holders: number; readonly kind: SessionKind | undefined; readonly waiting: number } {
    return { holders: this.#holders, kind: this.#kind, waiting: this.#queue.length };
  }

  #pump(): void {
    for (let head = this.#queue[0]; head; head = this.#queue[0]) {
      const shares = this.#holders === 0 || (head.kind === 'logged-in' && this.#kind === 'logged-in');
      if (!shares) return;
      this.#queue.shift();
      this.#holders += 1;
      this.#kind = head.kind;
      let released = false;
      head.admit(() => {
        if (released) return;
        released = true;
        this.#holders -= 1;
        if (this.#holders === 0) this.#kind = undefined;
        this.#pump();
      });
    }
  }
}
