/**
 * Client-side request ceilings for remote targets, one per interface of the service (RATE_LIMIT_RPS for the account
 * API and OAuth, whose documented public limit is about 7 per second per integration; CHAT_RATE_LIMIT_RPS for the chat
 * interface, another service at another origin; the control API is no part of the service and has none).
 * Each is a sliding-window log: a request waits until fewer than `rps` were sent in the last window. A request reaches
 * the server somewhere between its slot and its answer (a stalled event loop or a browser driver can delay its
 * departure), so its slot is held while it is in flight and counted from the answer: then no delay can put `rps + 1`
 * arrivals into one second at the server. The window is a little longer than a
 * second for clock granularity.
 */
import type { TargetConfig } from '../model/target.js';

/**
 * One rate budget of the client: the requests whose URL it claims, at most `rps` a second (none without), paused
 * alone after a 429. The service's limit is per interface (its account API and OAuth; the chat interface is another
 * service at another origin), so each is a budget of its own and a 429 from one never slows the other.
 */
export interface RateBudget {
  readonly name: string;
  readonly rps?: number;
  readonly claims: (url: string) => boolean;
}

export interface RateLimiterOptions {
  readonly rps: number;
  /** Extra milliseconds added to the one-second window (default 20: the window counts from answers, which already
   * come after the arrivals the server counts, so the margin is only for clock granularity). */
  readonly marginMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * Who waits first: the lower `priority` (the runner gives each rule the order it started in, src/runner/run-rule.ts),
 * then the earlier arrival. Long rules start first (src/runner/durations.ts), and a rule sends one request after
 * another: served in arrival order, 48 lanes would each get a forty-eighth of the rate, so a rule of 90 requests would
 * take as long as the whole run and end it alone. Served by start order, the first rules run at the full rate, and the
 * later ones fill the slots the first leave while they wait for an effect.
 */
interface Waiter {
  readonly priority: number;
  readonly seq: number;
  readonly go: () => void;
}

export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** Answer times of the last `limit` requests; `Infinity` while one is still in flight. */
  readonly #sent: number[] = [];
  /** Requests waiting for a slot, best first. */
  readonly #waiting: Waiter[] = [];
  #seq = 0;
  #pumping = false;
  /** Wakes the pump waiting while every slot is in flight. */
  #settled: (() => void) | undefined;

  constructor(options: RateLimiterOptions) {
    if (!(options.rps > 0)) throw new RangeError(`rps must be positive, got ${options.rps}`);
    // A fractional ceiling (0.5 rps) means one request per 2 s.
    this.#limit = Math.max(1, Math.floor(options.rps));
    this.#windowMs = (1000 * this.#limit) / options.rps + (options.marginMs ?? 20);
    this.#now = options.now ?? (() => performance.now());
    this.#sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Runs `send` when one more request may go out, holding its slot until it settles; lower `priority` goes first. */
  async hold<T>(send: () => Promise<T>, priority = 0): Promise<T> {
    await new Promise<void>((go) => {
      const waiter = { priority, seq: this.#seq++, go };
      const at = this.#waiting.findIndex((w) => w.priority > priority);
      this.#waiting.splice(at === -1 ? this.#waiting.length : at, 0, waiter);
      void this.#pump();
    });
    try {
      return await send();
    } finally {
      // In-flight entries are alike, so the first one stands for this request.
      this.#sent[this.#sent.indexOf(Infinity)] = this.#now();
      this.#settled?.();
    }
  }

  /** Hands out slots to the best waiter while there are any; one pump at a time. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#waiting.length > 0) {
        const now = this.#now();
        // Forget answers that have left the window; requests in flight stay.
        for (let i = this.#sent.length - 1; i >= 0; i -= 1) if (this.#sent[i]! + this.#windowMs <= now) this.#sent.splice(i, 1);
        if (this.#sent.length < this.#limit) {
          this.#sent.push(Infinity);
          this.#waiting.shift()!.go();
          continue;
        }
        const oldest = Math.min(...this.#sent);
        if (Number.isFinite(oldest)) await this.#sleep(oldest + this.#windowMs - now);
        else await new Promise<void>((resolve) => { this.#settled = resolve; }); // every slot is in flight
        this.#settled = undefined;
      }
    } finally {
      this.#pumping = false;
    }
  }
}

/**
 * The rate budgets of a run against `target`, for its HTTP client, one per interface of the service, as a deployment
 * serves each at its own origin: the access-granting page (`{auth_url}/oauth...`, before the account's,
 * which claims the rest of its origin) and everything else of the account (its API, OAuth's token endpoint) at RATE_LIMIT_RPS each, the
 * chat interface (`{chat_url}/v2/origin/custom/`) at CHAT_RATE_LIMIT_RPS, the control API unlimited. They are told
 * apart by path as well as origin: the emulator's one-origin shape serves all of them at one address.
 */
export function rateBudgets(target: Pick<TargetConfig, 'authUrl' | 'chatUrl' | 'controlUrl' | 'rateLimitRps' | 'chatRateLimitRps'>): RateBudget[] {
  const chat = `${target.chatUrl}/v2/origin/custom/`;
  const page = `${target.authUrl}/oauth`;
  const control = target.controlUrl;
  return [
    { name: 'page', ...(target.rateLimitRps ? { rps: target.rateLimitRps } : {}), claims: (url) => url.startsWith(page) && /^(?:[/?]|$)/.test(url.slice(page.length)) },
    { name: 'api', ...(target.rateLimitRps ? { rps: target.rateLimitRps } : {}), claims: (url) => !url.startsWith(chat) && !(control && (url === control || url.startsWith(`${control}/`))) },
    { name: 'chat', ...(target.chatRateLimitRps ? { rps: target.chatRateLimitRps } : {}), claims: (url) => url.startsWith(chat) },
    { name: 'control', claims: () => true },
  ];
}


