/**
 * Progress on stderr: one rewritten line on a terminal, a plain line every tenth of the run (and for every
 * failed or errored rule) in CI logs.
 */
import type { RuleResult } from '../model/result.js';
import type { Verdict } from '../model/outcome.js';

const MARK: Record<Verdict, string> = { passed: '✓', failed: '✗', non_strict: '~', informational: 'i', skipped: '-', errored: '!' };

export class Progress {
  #done = 0;
  #failed = 0;
  #errored = 0;
  #nextMilestone: number;

  constructor(private readonly total: number, private readonly out: NodeJS.WriteStream = process.stderr) {
    this.#nextMilestone = Math.ceil(total / 10);
  }

  get interactive(): boolean {
    return Boolean(this.out.isTTY) && !process.env.CI;
  }

  onResult = (r: RuleResult): void => {
    this.#done += 1;
    if (r.status === 'failed') this.#failed += 1;
    if (r.status === 'errored') this.#errored += 1;
    const counts = `${this.#done}/${this.total} rules, ${this.#failed} failed, ${this.#errored} errored`;
    if (this.interactive) {
      this.out.write(`\r\x1b[K[${counts}] ${MARK[r.status]} ${r.id}`);
      if (r.status === 'failed' || r.status === 'errored') this.out.write(`\r\x1b[K${MARK[r.status]} ${r.status} ${r.id}\n`);
      return;
    }
    if (r.status === 'failed' || r.status === 'errored') this.out.write(`${r.status}: ${r.id}: ${r.detail.slice(0, 200)}\n`);
    if (this.#done >= this.#nextMilestone || this.#done === this.total) {
      this.out.write(`progress: ${counts}\n`);
      this.#nextMilestone = this.#done + Math.ceil(this.total / 10);
    }
  };

  end(): void {
    if (this.interactive) this.out.write('\r\x1b[K');
  }
}
