/**
 * Verdicts and findings. A check produces a Finding; a rule's Outcome is the worst of its findings.
 */

/** The only six verdicts (docs/design.md §2). */
export type Verdict = 'passed' | 'failed' | 'non_strict' | 'informational' | 'skipped' | 'errored';

export const VERDICTS: readonly Verdict[] = ['passed', 'failed', 'non_strict', 'informational', 'skipped', 'errored'];

/** What one check concluded. `detail` says "expected … observed …" whenever it is not a plain pass. */
export interface Finding {
  readonly check: string;
  readonly verdict: 'passed' | 'failed' | 'non_strict' | 'informational';
  readonly detail: string;
}

/** The property-based part of an outcome, when the rule ran a fast-check property. */
export interface PropertyRun {
  readonly seed: number;
  readonly runs: number;
  readonly path?: string;
  readonly counterexample?: unknown;
  readonly shrinks?: number;
}

export interface Outcome {
  readonly verdict: Verdict;
  readonly detail: string;
  readonly findings: readonly Finding[];
  readonly property?: PropertyRun;
}

/**
 * Judged verdicts rank above a note: an informational finding records what was seen without judging it, so it never
 * outweighs a judged pass (issue 28 §3), and a harmful answer a rule met stays its verdict whatever notes sit beside it.
 */
const SEVERITY: Record<Finding['verdict'], number> = { informational: 0, passed: 1, non_strict: 2, failed: 3 };

/** The finding that decides: failed beats non_strict beats passed beats a note; the first of equals. */
export function worstFinding(findings: readonly Finding[]): Finding | undefined {
  let worst: Finding | undefined;
  for (const f of findings) if (!worst || SEVERITY[f.verdict] > SEVERITY[worst.verdict]) worst = f;
  return worst;
}

/**
 * Folds findings into an outcome: its verdict is the worst judged finding; informational findings are notes beside
 * it, and the outcome is `informational` only when nothing was judged.
 */
export function outcomeOf(findings: readonly Finding[], property?: PropertyRun): Outcome {
  const verdict = worstFinding(findings)?.verdict ?? 'passed';
  const judged = findings.filter((f) => f.verdict !== 'informational');
  const notes = findings.filter((f) => f.verdict === 'informational' && f.detail).map((f) => `note: ${f.check}: ${f.detail}`);
  const notable = judged.filter((f) => f.verdict !== 'passed');
  const main = notable.length > 0
    ? notable.map((f) => `${f.check}: ${f.detail}`)
    : judged.map((f) => f.detail).filter(Boolean);
  const parts = verdict === 'informational' ? notes.map((n) => n.slice('note: '.length)) : [...main, ...notes];
  const detail = parts.join('; ') || 'all checks passed';
  return property ? { verdict, detail, findings, property } : { verdict, detail, findings };
}

export const pass = (check: string, detail = ''): Finding => ({ check, verdict: 'passed', detail });
export const fail = (check: string, detail: string): Finding => ({ check, verdict: 'failed', detail });
export const nonStrict = (check: string, detail: string): Finding => ({ check, verdict: 'non_strict', detail });
export const observed = (check: string, detail: string): Finding => ({ check, verdict: 'informational', detail });
