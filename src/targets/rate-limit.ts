/**
 * Client-side request ceiling for remote targets (RATE_LIMIT_RPS; the service's documented public limit is
 * about 7 per second). A sliding-window log: a request waits until fewer than `rps` were sent in the last
 * window. The window is a little longer than a second so that network jitter cannot squeeze `rps + 1`
 * arrivals into one second at the server.
 */
export interface RateLimiterOptions {
  readonly rps: number;
  /** Extra milliseconds added to the one-second window (default 50). */
  readonly marginMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** Send times of the last `limit` requests, oldest first. */
  readonly #sent: number[] = [];
  #queue: Promise<void> = Promise.resolve();

  constructor(options: RateLimiterOptions) {
    if (!(options.rps > 0)) throw new RangeError(`rps must be positive, got ${options.rps}`);
    // A fractional ceiling (0.5 rps) means one request per 2 s.
    this.#limit = Math.max(1, Math.floor(options.rps));
    this.#windowMs = (1000 * this.#limit) / options.rps + (options.marginMs ?? 50);
    this.#now = options.now ?? (() => performance.now());
    this.#sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Resolves when one more request may be sent; callers are served in arrival order. */
  acquire(): Promise<void> {
    const turn = this.#queue.then(() => this.#take());
    this.#queue = turn;
    return turn;
  }

  async #take(): Promise<void> {
    for (;;) {
      const now = this.#now();
      if (this.#sent.length < this.#limit) break;
      const wait = this.#sent[0]! + this.#windowMs - now;
      if (wait <= 0) {
        this.#sent.shift();
        break;
      }
      await this.#sleep(wait);
    }
    this.#sent.push(this.#now());
  }
}

/** Delay before retrying a 429: Retry-After (seconds or an HTTP date) when given, else exponential; capped. */
export function retryDelayMs(retryAfter: string | undefined, attempt: number, capMs = 30_000): number {
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, capMs);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.min(Math.max(0, date - Date.now()), capMs);
  }
  return Math.min(1000 * 2 ** attempt, capMs);
}
