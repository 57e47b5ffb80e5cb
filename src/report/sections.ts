/**
 * Helpers shared by the report writers: section ordering, grouping, verdict order and small text utilities.
 */
import type { Report, RuleResult, Summary } from '../model/result.js';
import { VERDICTS, type Verdict } from '../model/outcome.js';

/** Verdicts in the order reports show them (worst first). */
export const VERDICT_ORDER: readonly Verdict[] = ['failed', 'errored', 'non_strict', 'informational', 'skipped', 'passed'];

/** Compares dotted section numbers numerically: 2.3 < 4.1 < 4.2 < 5.2 < 10.1. Non-numeric parts compare as text. */
export function compareSections(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  const n = Math.max(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : Number.NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : Number.NaN;
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) {
      if (nx !== ny) return nx - ny;
    } else if (Number.isNaN(nx) !== Number.isNaN(ny)) {
      return Number.isNaN(nx) ? 1 : -1; // numbers before words
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

export interface SectionGroup {
  readonly section: string;
  readonly results: readonly RuleResult[];
  readonly summary: Summary;
}

/** Groups results by section, sections sorted numerically, rules kept in report order inside a section. */
export function groupBySection(results: readonly RuleResult[]): SectionGroup[] {
  const map = new Map<string, RuleResult[]>();
  for (const r of results) {
    const key = r.section || '?';
    let list = map.get(key);
    if (!list) map.set(key, (list = []));
    list.push(r);
  }
  return [...map.keys()].sort(compareSections).map((section) => {
    const list = map.get(section) ?? [];
    return { section, results: list, summary: countVerdicts(list) };
  });
}

export function countVerdicts(results: readonly RuleResult[]): Summary {
  const s = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Summary;
  for (const r of results) if (r.status in s) s[r.status] += 1;
  return s;
}

/** Cuts text to at most `max` characters (never splitting a surrogate pair), ending with `…` when cut. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, Math.max(0, end))}…`;
}

/** JSON.stringify that never throws (bigint, cycles) — for counterexamples and other unknown values. */
export function safeJson(value: unknown, indent = 2): string {
  const seen = new WeakSet<object>();
  try {
    return JSON.stringify(
      value,
      (_key, v: unknown) => {
        if (typeof v === 'bigint') return `${v.toString()}n`;
        if (typeof v === 'object' && v !== null) {
          if (seen.has(v)) return '[Circular]';
          seen.add(v);
        }
        if (v === undefined) return null;
        return v;
      },
      indent,
    ) ?? 'undefined';
  } catch (e) {
    return `<unserializable: ${(e as Error).message}>`;
  }
}

/** A rule's failure under the run's policy: a failed `must` rule, or any failed rule when the run was strict. */
export function failsRun(r: RuleResult, strict: boolean): boolean {
  return r.status === 'failed' && (r.level === 'must' || strict);
}

export function isStrict(options: Record<string, unknown> | undefined): boolean {
  return options?.['strict'] === true;
}

/**
 * A duration as a person reads it: `850 ms`, `12.3 s`, `3 min 5 s`, `1 h 2 min`. The parts are taken from the whole
 * rounded to its shown unit first, so a rounding never shows `60 s` or `60 min` (59.97 s reads `1 min 0 s`).
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(ms / 60_000);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The regressions of a report made against a baseline, in report order (ids the baseline part names). */
export function regressionsOf(report: Report): RuleResult[] {
  const ids = new Set(report.baseline?.regressions ?? []);
  return (report.results ?? []).filter((r) => ids.has(r.id));
}
