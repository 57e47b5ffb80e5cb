/**
 * The one traced quick run the kit's tests share (src/runner/trace.ts): the places table (test/specs/places.test.ts)
 * and the variations' reach (test/variations/suite.ts) read it from one run instead of a run each.
 *
 * Test files run in separate processes, so the trace is kept in node_modules/.cache/conformance-tests under a hash of
 * every source it depends on: the first file to need it traces (holding a lock file), the others wait and read it,
 * and the next `npm test` on the same sources reads it too. A trace whose healthy run failed or errored a rule is not
 * kept: the next file traces again instead of reading a flake.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, openSync, closeSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { allRules } from '../specs/index.js';
import { PROFILE_RUNS } from '../src/cli/run-options.js';
import type { Report } from '../src/model/result.js';
import { placesOf } from '../src/protocol/places.js';
import { traceRun, TRACE_SEED, type RunTrace } from '../src/runner/trace.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'conformance-tests');
/** What the run is made of; the generated reach.json is written from the trace, not read by it. */
const SOURCES = ['src', 'specs', 'generators', 'package-lock.json', 'test/traced-run.ts'];
const GENERATED = new Set(['specs/requirements/reach.json']);
/** Longer than a trace takes on a loaded 2-core machine; a lock older than this is a dead holder's. */
const STALE_LOCK_MS = 600_000;

/** `failed` and unjudged results (errored, or skipped behind a refused step) as `id: status detail` lines, for an assertion that names each rule. */
export function untrue(report: Report): string[] {
  return report.results.filter((r) => r.status === 'failed' || r.status === 'errored' || r.blocked_by !== undefined).map((r) => `${r.id}: ${r.status} ${r.detail ?? ''}`);
}

export function sourceHash(): string {
  const hash = createHash('sha256');
  const add = (path: string) => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
      return;
    }
    const name = relative(ROOT, path);
    if (!GENERATED.has(name)) hash.update(`${name}\0`).update(readFileSync(path)).update('\0');
  };
  for (const source of SOURCES) if (existsSync(join(ROOT, source))) add(join(ROOT, source));
  return hash.digest('hex').slice(0, 16);
}

let mine: Promise<RunTrace> | undefined;

/** The trace of a healthy quick run of every rule, seed TRACE_SEED: read from the cache, or traced once. */
export function sharedTrace(): Promise<RunTrace> {
  return (mine ??= cachedTrace());
}

async function cachedTrace(): Promise<RunTrace> {
  mkdirSync(CACHE, { recursive: true });
  const key = sourceHash();
  const file = join(CACHE, `trace-${key}.json`);
  const lock = `${file}.lock`;
  for (;;) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as RunTrace;
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (holderGone(lock)) rmSync(lock, { force: true });
      else await sleep(500);
      continue;
    }
    try {
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      const trace = await traceRun({ rules: allRules(), seed: TRACE_SEED, runs: PROFILE_RUNS.quick, placesOf });
      if (untrue(trace.report).length === 0) {
        for (const old of readdirSync(CACHE)) if (old.startsWith('trace-') && !old.startsWith(`trace-${key}`)) rmSync(join(CACHE, old), { force: true });
        writeFileSync(`${file}.${process.pid}`, JSON.stringify(trace));
        renameSync(`${file}.${process.pid}`, file);
      }
      return trace;
    } finally {
      rmSync(lock, { force: true });
    }
  }
}

/** A lock whose process is gone, or that is older than any trace takes. */
function holderGone(lock: string): boolean {
  try {
    const pid = Number(readFileSync(lock, 'utf8'));
    if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) return true;
    // Written just after the lock was taken: an empty file is a holder that has not written yet.
    if (!pid) return false;
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
