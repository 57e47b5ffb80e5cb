/**
 * Progress of a run on stderr. On a terminal: a bar (rules done / total, failures so far, elapsed time, the rule
 * that just finished) drawn by cli-progress, with a permanent line above it for every failed or errored rule. In CI
 * or when stderr is not a terminal: plain lines, one every tenth of the run and one per failed or errored rule.
 * Every line passes through the run's masker: nothing printed holds a secret.
 */
import cliProgress from 'cli-progress';
import type { Verdict } from '../model/outcome.js';
import type { RuleResult } from '../model/result.js';
import type { Masker } from '../secrets/mask.js';

const MARK: Record<Verdict, string> = { passed: '✓', failed: '✗', non_strict: '~', informational: 'i', skipped: '-', errored: '!' };
const BAR_FORMAT = '{bar} {value}/{total} rules | {failed} failed, {errored} errored | {duration_formatted}{left} | {rule}';

export type ProgressStream = NodeJS.WritableStream & { readonly isTTY?: boolean; readonly columns?: number };

export interface ProgressOptions {
  readonly total: number;
  /** Default: process.stderr. */
  readonly stream?: ProgressStream;
  /** The run's masker, which learns the run's secrets as it goes. */
  readonly masker?: Masker;
  /** A CI log gets plain lines even when it claims to be a terminal. Default: whether CI is set. */
  readonly ci?: boolean;
  /** Milliseconds, for the elapsed time of plain lines. */
  readonly now?: () => number;
  /**
   * The requests each rule of the run sent last time (src/runner/durations.ts): the progress then says how many are
   * left, and with a rate limit how long they take at best (a remote run's time is its requests over the rate).
   */
  readonly expectedRequests?: ReadonlyMap<string, number>;
  /** The run's client-side rate limit, requests per second. */
  readonly rateLimitRps?: number;
}

/** "~1,234 requests left (≈ 3 min at 7/s)", or nothing without an estimate. */
export function requestsLeft(left: number, rps: number | undefined): string {
  if (left <= 0) return '';
  const seconds = rps ? Math.ceil(left / rps) : undefined;
  const time = seconds === undefined ? '' : ` (≈ ${seconds < 60 ? `${seconds} s` : `${Math.round(seconds / 60)} min`} at ${rps}/s)`;
  return `~${left.toLocaleString('en-US')} requests left${time}`;
}

export class Progress {
  readonly interactive: boolean;
  readonly #total: number;
  readonly #out: ProgressStream;
  readonly #mask: (text: string) => string;
  readonly #now: () => number;
  readonly #started: number;
  readonly #bars?: cliProgress.MultiBar;
  readonly #bar?: cliProgress.SingleBar;
  #done = 0;
  #failed = 0;
  #errored = 0;
  #nextMilestone: number;
  readonly #expected: ReadonlyMap<string, number>;
  readonly #rps: number | undefined;
  #requestsLeft: number;

  constructor(o: ProgressOptions) {
    this.#total = o.total;
    this.#out = o.stream ?? process.stderr;
    this.#mask = o.masker ? (text) => o.masker!.mask(text) : (text) => text;
    this.#now = o.now ?? Date.now;
    this.#started = this.#now();
    this.#nextMilestone = Math.ceil(o.total / 10);
    this.#expected = o.expectedRequests ?? new Map();
    this.#rps = o.rateLimitRps;
    this.#requestsLeft = [...this.#expected.values()].reduce((a, b) => a + b, 0);
    this.interactive = Boolean(this.#out.isTTY) && !(o.ci ?? Boolean(process.env.CI));
    if (this.interactive) {
      this.#bars = new cliProgress.MultiBar({
        stream: this.#out,
        format: (options, params, payload) => this.#mask(cliProgress.Format.Formatter({ ...options, format: BAR_FORMAT }, params, payload)),
        barsize: 24,
        clearOnComplete: true,
        // cli-progress would restore a hidden cursor on SIGINT by listening for it, which stops Ctrl-C from ending the run.
        hideCursor: false,
        gracefulExit: false,
      });
      this.#bar = this.#bars.create(o.total, 0, { failed: 0, errored: 0, rule: '', left: this.#left(' | ') });
    }
  }

  onResult = (r: RuleResult): void => {
    this.#done += 1;
    this.#requestsLeft -= this.#expected.get(r.id) ?? 0;
    if (r.status === 'failed') this.#failed += 1;
    if (r.status === 'errored') this.#errored += 1;
    const bad = r.status === 'failed' || r.status === 'errored';
    if (this.#bars && this.#bar) {
      if (bad) this.#bars.log(this.#mask(`${MARK[r.status]} ${r.status} ${r.id}\n`));
      this.#bar.increment(1, { failed: this.#failed, errored: this.#errored, rule: r.id, left: this.#left(' | ') });
      return;
    }
    if (bad) this.#out.write(this.#mask(`${r.status}: ${r.id}: ${r.detail.slice(0, 200)}\n`));
    if (this.#done >= this.#nextMilestone || this.#done === this.#total) {
      const elapsed = Math.round((this.#now() - this.#started) / 1000);
      this.#out.write(this.#mask(`progress: ${this.#done}/${this.#total} rules, ${this.#failed} failed, ${this.#errored} errored, ${elapsed} s${this.#left(', ')}\n`));
      this.#nextMilestone = this.#done + Math.ceil(this.#total / 10);
    }
  };

  #left(separator: string): string {
    const text = requestsLeft(this.#requestsLeft, this.#rps);
    return text ? `${separator}${text}` : '';
  }

  /** Clears the bar (after writing any failure line still buffered); plain lines need no end. */
  end(): void {
    if (!this.#bars) return;
    this.#bars.update();
    this.#bars.stop();
  }
}
