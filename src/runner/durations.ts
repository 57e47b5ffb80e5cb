/**
 * How long each rule took in the last runs against a kind of target, kept in the user's cache folder (cacheDir) so
 * that the next run can start its longest rules first (as Jest orders test files). Each lane then ends about when
 * its total work is done, instead of with one long rule, started last, that the others wait for: a page rule that
 * watches two negative windows took 2 s at the end of a run with nothing else left to do.
 *
 * Only the order depends on it: which requests a rule sends, and its verdict, never do. A missing or unreadable file
 * leaves the rules in their own order.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { RuleResult } from '../model/result.js';
import type { TargetKind } from '../model/target.js';

export type Durations = ReadonlyMap<string, number>;

/**
 * Where the figures of the last runs live: CONFORMANCE_CACHE_DIR, else the user's cache folder (XDG_CACHE_HOME, else
 * ~/.cache) under conformance-kit, as the emulator's TLS files. Not under the package's node_modules: `npm ci` wipes
 * that folder on every CI job, and --budget's request counts with it (a CI keeps them by caching this folder, or gives
 * --baseline, whose report carries them); nor inside the package, which may be installed read-only.
 */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['CONFORMANCE_CACHE_DIR']) return resolve(env['CONFORMANCE_CACHE_DIR']);
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'conformance-kit');
}

const FILE = join(cacheDir(), 'durations.json');
/** The requests each rule sent in the last run: the progress line's estimate of what is left, and --budget's costs. */
const REQUESTS_FILE = join(cacheDir(), 'requests.json');

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
