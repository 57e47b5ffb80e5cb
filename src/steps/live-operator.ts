/**
 * A person's act on the account (deactivate or disconnect an installation, regenerate the secret key, revoke a
 * long-lived token): done through the control API when the target has one, else asked of the operator at the terminal
 * ("deactivate the installation in account X, then press Enter"), one question at a time (the `operator` need,
 * src/needs/providers/operator.ts). In CI or without a terminal the rule is skipped with that reason.
 */
import { createInterface } from 'node:readline/promises';
import { SkipRule } from '../errors.js';
import type { RuleContext, RunResource } from '../model/context.js';

/** How long the kit waits for the operator before it gives up on the step (and skips the rule). */
export const OPERATOR_TIMEOUT_MS = 15 * 60_000;

export interface OperatorIo {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  readonly timeoutMs?: number;
}

export type OperatorAnswer =
  | { readonly kind: 'done'; readonly text: string }
  | { readonly kind: 'skipped' }
  | { readonly kind: 'timed-out' };

/**
 * Asks once and waits for a line: `s` or `skip` means the operator will not do it; anything else (an empty line, or
 * the value the question asks for) that it is done. The question never holds a secret: it names accounts and
 * integrations, not keys.
 */
export async function askOperator(question: string, io: OperatorIo): Promise<OperatorAnswer> {
  const rl = createInterface({ input: io.input, output: io.output, terminal: false });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), io.timeoutMs ?? OPERATOR_TIMEOUT_MS);
  // The input ends (Ctrl-D, a pipe that closed): nobody is there to act.
  const closed = new Promise<OperatorAnswer>((resolve) => rl.once('close', () => resolve({ kind: 'timed-out' })));
  try {
    const asked = rl.question(`\nconformance: operator step: ${question} (or type s and Enter to skip this rule): `, { signal: abort.signal })
      .then((text): OperatorAnswer => (/^\s*s(kip)?\s*$/i.test(text) ? { kind: 'skipped' } : { kind: 'done', text: text.trim() }))
      .catch((err: unknown): OperatorAnswer => {
        if (abort.signal.aborted || (err as Error).name === 'AbortError') return { kind: 'timed-out' };
        throw err;
      });
    return await Promise.race([asked, closed]);
  } finally {
    clearTimeout(timer);
    rl.close();
  }
}

/** Serializes the questions of concurrent rules: one person answers one question at a time. */
export class OperatorDesk implements RunResource {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly io: OperatorIo) {}

  ask(question: string): Promise<OperatorAnswer> {
    const turn = this.#queue.then(() => askOperator(question, this.io));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  async close(): Promise<void> {}
}

export interface OperatorStep {
  /** What the person does, in the imperative: "deactivate the installation in account X". */
  readonly instruction: string;
  /** The same act through the control API, when the target has one. */
  readonly control?: () => Promise<void>;
}

/** The operator's answer as the step's result: a skip or a silence skips the rule. */
export function answered(answer: OperatorAnswer, instruction: string): string {
  if (answer.kind === 'skipped') throw new SkipRule(`the operator chose not to ${instruction}`);
  if (answer.kind === 'timed-out') throw new SkipRule(`no answer from the operator (${instruction}): the input closed or ${OPERATOR_TIMEOUT_MS / 60_000} minutes passed`);
  return answer.text;
}

/** Has the act done: by the control API, else by the operator; else the rule is skipped with the reason. */
export async function operatorStep(t: RuleContext, step: OperatorStep): Promise<void> {
  await (await t.need('operator', { why: step.instruction })).act(step);
}

/**
 * Has the act done and asks for what it produced (a new secret key, a token made on the Keys tab): by the control API,
 * else typed by the operator; the value is taught to the masker before anything can print it.
 */
export async function operatorValue(t: RuleContext, step: { instruction: string; value: string; secret: boolean; control?: () => Promise<string> }): Promise<string> {
  return (await t.need('operator', { why: step.instruction })).value(step);
}
