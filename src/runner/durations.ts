/**
 * How long each rule took in the last runs against a kind of target, kept in node_modules/.cache/conformance-kit so
 * that the next run can start its longest rules first (as Jest orders test files). Each lane then ends about when
 * its total work is done, instead of with one long rule, started last, that the others wait for: a page rule that
 * watches two negative windows took 2 s at the end of a run with nothing else left to do.
 *
 * Only the order depends on it: which requests a rule sends, and its verdict, never do. A missing or unreadable file
 * leaves the rules in their own order.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RuleResult } from '../model/result.js';
import type { TargetKind } from '../model/target.js';
import { kitPath } from '../paths.js';

export type Durations = ReadonlyMap<string, number>;

const FILE = kitPath('node_modules', '.cache', 'conformance-kit', 'durations.json');
/** The requests each rule sent in the last run, for the progress line's estimate of what is left. */
const REQUESTS_FILE = kitPath('node_modules', '.cache', 'conformance-kit', 'requests.json');

type Stored = Partial<Record<string, Record<string, number>>>;

function readStored(path: string): Stored {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Stored;
  } catch {
    return {};
  }
}

/** The rules' last durations against this kind of target (empty when none were kept). */
export function lastDurations(kind: TargetKind, path = FILE): Durations {
  return lastFigures(kind, path);
}

/** Keeps the durations of the rules that ran (skipped ones keep their earlier figure). Never fails the run. */
export function keepDurations(kind: TargetKind, results: readonly RuleResult[], path = FILE): void {
  keepFigures(kind, results, (r) => r.duration_ms, path);
}

/**
 * The key of request counts: the kind of target and the cases per property, since a full run's property rules send
 * twenty times the quick one's requests.
 */
export function countsKey(kind: TargetKind, runs: number): string {
  return `${kind}:${runs}`;
}

/** The requests each rule sent in its last run under this key (countsKey; empty when none were kept). */
export function lastRequestCounts(key: string, path = REQUESTS_FILE): Durations {
  return lastFigures(key, path);
}

/** Keeps the request count of each rule that ran. Never fails the run. */
export function keepRequestCounts(key: string, results: readonly RuleResult[], path = REQUESTS_FILE): void {
  keepFigures(key, results, (r) => r.request_count, path);
}

function lastFigures(kind: string, path: string): Durations {
  return new Map(Object.entries(readStored(path)[kind] ?? {}).filter(([, n]) => typeof n === 'number'));
}

function keepFigures(kind: string, results: readonly RuleResult[], figure: (r: RuleResult) => number | undefined, path: string): void {
  try {
    const stored = readStored(path);
    const mine = { ...stored[kind] };
    for (const r of results) {
      const n = figure(r);
      if (r.status !== 'skipped' && n !== undefined) mine[r.id] = n;
    }
    mkdirSync(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}`;
    writeFileSync(temp, JSON.stringify({ ...stored, [kind]: mine }));
    renameSync(temp, path);
  } catch {
    // a cache: the next run only loses its order
  }
}

/** Longest first by the last durations; rules without one (new rules) before them, all others in their own order. */
export function longestFirst<R extends { readonly id: string }>(rules: readonly R[], durations: Durations): R[] {
  if (durations.size === 0) return [...rules];
  const cost = (r: R) => durations.get(r.id) ?? Infinity;
  return [...rules].sort((a, b) => cost(b) - cost(a));
}
