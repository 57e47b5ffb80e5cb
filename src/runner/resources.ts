/**
 * Resources a run starts lazily and shares between rules (the browser of the access-granting page rules, the
 * listener of the disconnect hook): created by the first rule that asks, closed once when the run ends. The opener
 * runs as the resource's own work, not the asking rule's (src/rule-scope.ts): what it sends belongs to every
 * rule that shares it, so a trace or a comparison does not pin it on whichever rule came first.
 */
import type { RunResource } from '../model/context.js';
import { inResourceScope, noteResourceAsked } from '../rule-scope.js';

export class RunResources {
  readonly #items = new Map<string, Promise<RunResource>>();
  readonly #lent: ReadonlyMap<string, () => Promise<RunResource>>;

  /**
   * `lent`: resources the caller owns, opens on first ask and keeps open after the run (the kit's own tests lend one
   * browser to the many short runs of a test file: Chromium's start is seconds on a loaded machine, once per run
   * otherwise).
   */
  constructor(lent: ReadonlyMap<string, () => Promise<RunResource>> = new Map()) {
    this.#lent = lent;
  }

  /** The resource under `key`, created by `create` on first use; a failed creation is retried by the next caller. */
  get<T extends RunResource>(key: string, create: () => Promise<T>): Promise<T> {
    noteResourceAsked(key);
    const lent = this.#lent.get(key);
    if (lent) return lent() as Promise<T>;
    let item = this.#items.get(key);
    if (!item) {
      item = inResourceScope(key, create);
      this.#items.set(key, item);
      item.catch(() => this.#items.delete(key));
    }
    return item as Promise<T>;
  }

  /** Closes everything created so far; never throws (a run's report matters more than a resource's shutdown). */
  async closeAll(): Promise<void> {
    const items = [...this.#items.values()];
    this.#items.clear();
    await Promise.allSettled(items.map(async (p) => (await p).close()));
  }
}
