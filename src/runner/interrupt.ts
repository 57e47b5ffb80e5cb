/**
 * A run stopped by SIGINT or SIGTERM (a Ctrl-C, a CI job cancelled or timed out) keeps what it did (issue 38 §4): no
 * rule starts after the signal, the rules in flight get a short grace to end and are abandoned after it (an `errored`
 * result that says so), every rule not started is listed as not run, the report is marked incomplete and written,
 * what the run opened is closed, and the process exits 130 or 143 (docs/design.md §3). A second signal exits at once.
 *
 * The grace is short on purpose: GitHub Actions sends SIGINT, then SIGTERM 7.5 s later, then SIGKILL 2.5 s after
 * that; the reports must be written before the second signal, which ends the process without them.
 */
import type { RuleResult } from '../model/result.js';
import type { Rule } from '../model/rule.js';
import { skippedResult } from './run-rule.js';

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** The exit code of a run a signal stopped: 128 + the signal's number, as a shell reports a process it ended. */
export const SIGNAL_EXIT_CODE: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143 };

/** How long the rules in flight at the signal may take to end before they are abandoned. */
export const DEFAULT_GRACE_MS = 3_000;

/** What report.json says of an interrupted run (src/model/result.ts `interruption`). */
export interface InterruptionRecord {
  readonly signal: StopSignal;
  readonly at: string;
  readonly not_run: readonly string[];
  readonly abandoned: readonly string[];
}

/** Whether, and by which signal, a run was told to stop; the suite runner consults it before each rule. */
export class Interruption {
  #signal: StopSignal | undefined;
  #at: string | undefined;
  #notify!: () => void;
  readonly #notRun: string[] = [];
  readonly #abandoned: string[] = [];
  /** Settles when the run is told to stop (never, for a run that ends on its own). */
  readonly stopped: Promise<void> = new Promise((resolve) => { this.#notify = resolve; });

  constructor(readonly graceMs = DEFAULT_GRACE_MS) {}

  get signal(): StopSignal | undefined {
    return this.#signal;
  }

  /** The first signal only: later ones do not move the time the run stopped at. */
  stop(signal: StopSignal, at = new Date()): void {
    if (this.#signal) return;
    this.#signal = signal;
    this.#at = at.toISOString();
    this.#notify();
  }

  /** A selected rule that never started: `skipped`, saying so (it reached no verdict, and is not counted as run). */
  notRun(rule: Rule): RuleResult {
    this.#notRun.push(rule.id);
    return skippedResult(rule, `not run: the run was interrupted by ${this.#signal} before this rule started`);
  }

  /** A rule still in flight when the grace ran out: `errored` (unjudged), its verdict never known. */
  abandoned(rule: Rule, startedAt: number): RuleResult {
    this.#abandoned.push(rule.id);
    // What it sent is not known: the count stays out rather than say 0.
    const { request_count: _unknown, ...described } = skippedResult(rule, '');
    return {
      ...described,
      status: 'errored',
      duration_ms: Math.round(performance.now() - startedAt),
      detail: `abandoned: interrupted by ${this.#signal} while this rule ran (it did not end within ${this.graceMs} ms of the signal)`,
    };
  }

  /** The report's `interruption`, or undefined when no signal came. */
  record(): InterruptionRecord | undefined {
    if (!this.#signal) return undefined;
    return { signal: this.#signal, at: this.#at!, not_run: [...this.#notRun], abandoned: [...this.#abandoned] };
  }
}

export interface SignalWatch {
  readonly interruption: Interruption;
  /** Stops listening (the run ended): a signal after it is the process's default again. */
  dispose(): void;
}

export interface WatchOptions {
  readonly log?: (line: string) => void;
  /** Ends the process at a second signal (default process.exit). */
  readonly exit?: (code: number) => void;
  readonly graceMs?: number;
}

/**
 * Listens for SIGINT and SIGTERM while a run lasts. The first tells the run to stop; a second ends the process at once
 * with the exit code of the signal that came first (the reports are then not written).
 */
export function watchSignals(options: WatchOptions = {}): SignalWatch {
  const interruption = new Interruption(options.graceMs);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const on = (signal: StopSignal) => () => {
    if (interruption.signal) {
      log(`conformance: ${signal} again: exiting at once, without reports`);
      exit(SIGNAL_EXIT_CODE[interruption.signal]);
      return;
    }
    interruption.stop(signal);
    log(`conformance: ${signal}: stopping: no rule starts any more, the rules in flight get ${interruption.graceMs} ms to end, then the reports of what ran are written (a second signal exits at once)`);
  };
  const handlers = { SIGINT: on('SIGINT'), SIGTERM: on('SIGTERM') };
  process.on('SIGINT', handlers.SIGINT);
  process.on('SIGTERM', handlers.SIGTERM);
  return {
    interruption,
    dispose: () => {
      process.off('SIGINT', handlers.SIGINT);
      process.off('SIGTERM', handlers.SIGTERM);
    },
  };
}

/**
 * Thrown once the reports of an interrupted run are written: the command ends with the signal's exit code and this
 * one line (src/cli/main.ts prints an error's message and returns its `exitCode`), whichever command ran the suite.
 */
export class RunInterrupted extends Error {
  readonly exitCode: number;
  constructor(readonly signal: StopSignal, where: string) {
    super(`interrupted by ${signal}: the reports of what ran are in ${where}, marked incomplete`);
    this.name = 'RunInterrupted';
    this.exitCode = SIGNAL_EXIT_CODE[signal];
  }
}
