/**
 * A run stopped by a signal keeps what it did (issue 38 §4, src/runner/interrupt.ts): started as a user (or a CI job)
 * starts it, signalled once some rules reported, it exits 130 (SIGINT) or 143 (SIGTERM) and leaves report.json
 * marked incomplete, with every selected rule either run, abandoned (errored, saying so) or listed as not run, and
 * junit.xml, report.html and summary.md beside it.
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Report } from '../../src/model/result.js';
import { startConformance, type CommandResult } from './helpers.js';

/** Starts `conformance run`, sends `signal` once its progress says some rules reported, and waits for its end. */
async function interruptedRun(args: string[], signal: NodeJS.Signals, env?: NodeJS.ProcessEnv): Promise<CommandResult> {
  const run = startConformance(['run', ...args], env ? { env } : {});
  await new Promise<void>((resolve, reject) => {
    // A CI run prints a progress line at every tenth of the rules (src/cli/progress.ts): the first means rules reported.
    const seen = () => /^progress: [1-9]\d*\/\d+ rules/m.test(run.output().stderr);
    run.child.stderr!.on('data', () => { if (seen()) resolve(); });
    run.done.then((r) => reject(new Error(`the run ended (${r.code}) before it was signalled: ${r.stderr.slice(-2000)}`)), reject);
  });
  run.child.kill(signal);
  return run.done;
}

async function reportsOf(out: string): Promise<Report> {
  for (const name of ['report.json', 'junit.xml', 'report.html', 'summary.md']) expect((await stat(join(out, name))).size, name).toBeGreaterThan(0);
  expect(await readFile(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuites?[\s>]/);
  expect(await readFile(join(out, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/i);
  return JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
}

/** Every rule the run selected is accounted for: run, abandoned (errored) or not run (skipped), as the report says. */
function expectAccounted(report: Report, signal: string): void {
  expect(report.incomplete).toBe(true);
  const interruption = report.interruption!;
  expect(interruption.signal).toBe(signal);
  expect(Number.isNaN(Date.parse(interruption.at))).toBe(false);
  expect(interruption.not_run.length).toBeGreaterThan(0);
  const byId = new Map(report.results.map((r) => [r.id, r]));
  for (const id of interruption.not_run) {
    expect(byId.get(id)?.status, id).toBe('skipped');
    expect(byId.get(id)?.detail, id).toMatch(new RegExp(`^not run: the run was interrupted by ${signal}`));
  }
  for (const id of interruption.abandoned) {
    expect(byId.get(id)?.status, id).toBe('errored');
    expect(byId.get(id)?.detail, id).toMatch(new RegExp(`^abandoned: interrupted by ${signal}`));
  }
  // Some rules did run before the signal, and the summary counts what the results say.
  expect(report.results.filter((r) => r.status === 'passed').length).toBeGreaterThan(0);
  expect(report.summary.skipped).toBe(report.results.filter((r) => r.status === 'skipped').length);
}

describe('a remote run interrupted by SIGINT', () => {
  let emulator: RunningEmulator;
  let dir: string;
  beforeAll(async () => {
    emulator = await startEmulator();
    dir = await mkdtemp(join(tmpdir(), 'conformance-interrupt-'));
  });
  afterAll(() => emulator?.close());

  it('exits 130 and leaves report.json marked incomplete, junit.xml and report.html', async () => {
    const out = join(dir, 'remote');
    const r = await interruptedRun(['--target', 'remote', '--seed', '3', '--out', out], 'SIGINT', emulator.env());
    expect(r.code, r.stderr.slice(-2000)).toBe(130);
    expect(r.stderr).toMatch(/SIGINT: stopping/);
    expect(r.stderr).toMatch(/interrupted by SIGINT: the reports of what ran are in /);
    expect(r.stderr).not.toMatch(/internal error/);
    expectAccounted(await reportsOf(out), 'SIGINT');
  }, 600_000);
});

describe('an embedded run interrupted by SIGTERM', () => {
  it('exits 143 with the reports of what ran', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'conformance-interrupt-')), 'embedded');
    const r = await interruptedRun(['--seed', '3', '--out', out], 'SIGTERM');
    expect(r.code, r.stderr.slice(-2000)).toBe(143);
    expectAccounted(await reportsOf(out), 'SIGTERM');
  }, 600_000);
});
