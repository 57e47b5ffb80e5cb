/**
 * The report flags of `run` end to end (issue 38 §6): a real quick embedded run whose report.json validates against the
 * shipped schema with ajv; --only and --exclude count only the selected rules (the others are listed as not selected,
 * never as skipped); --junit and --summary put those files where a CI wants them, JUnit's total time the run's wall
 * time; a flag given a flag as its value, --runs out of bounds and an --exclude that matches nothing are usage errors.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import type { Report } from '../../src/model/result.js';
import { REPORT_SCHEMA_PATH } from '../../src/report/json.js';
import { selection } from '../../src/runner/select.js';
import { conformance, type CommandResult } from './helpers.js';

const ONLY = '2.3,5.2';
const EXCLUDE = 'chat.signature.route.*';

describe('conformance run: report flags', () => {
  let dir: string;
  let run: CommandResult;
  let report: Report;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'conformance-report-flags-'));
    run = await conformance(['run', '--profile', 'quick', '--seed', '3', '--only', ONLY, '--exclude', EXCLUDE, '--out', join(dir, 'out'),
      '--junit', join(dir, 'ci', 'conformance.xml'), '--summary', join(dir, 'step-summary.md')]);
    report = JSON.parse(await readFile(join(dir, 'out', 'report.json'), 'utf8')) as Report;
  }, 200_000);

  it('runs, and its report.json validates against the shipped schema', async () => {
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.code, run.stderr).toBe(0);
    const validate = new Ajv({ allErrors: true, strict: true }).compile(JSON.parse(await readFile(REPORT_SCHEMA_PATH, 'utf8')) as object);
    expect(validate(report), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(report.format_version).toMatch(/^\d+\.\d+$/);
  });

  it('counts only the rules --only selects and --exclude leaves: the others are not selected, not skipped', () => {
    const chosen = selection({ only: ONLY, exclude: EXCLUDE });
    const selected = allRules().filter(chosen).map((r) => r.id);
    expect(selected.length).toBeGreaterThan(5);
    expect(report.results.map((r) => r.id).sort()).toEqual([...selected].sort());
    expect(report.results.some((r) => r.id.startsWith('chat.signature.route.'))).toBe(false);
    expect(report.not_selected).toHaveLength(allRules().length - selected.length);
    expect(report.summary.skipped).toBe(0);
    expect(Object.values(report.summary).reduce((a, b) => a + b, 0)).toBe(selected.length);
    expect(report.options).toMatchObject({ only: ONLY, exclude: EXCLUDE });
    expect(run.stderr).toContain(`conformance: ${selected.length} of ${allRules().length} rules (--only/--exclude) against the embedded emulator`);
  });

  it('says of every statement of the spec what the run judged, the unselected ones as not selected', () => {
    const statements = report.statements ?? [];
    expect(statements.length).toBeGreaterThan(500);
    expect(statements.some((s) => s.judgement === 'full')).toBe(true);
    expect(statements.filter((s) => s.judgement === 'none').every((s) => s.cause === 'not-selected' || s.cause === 'no-rule')).toBe(true);
    expect(statements.some((s) => s.cause === 'not-selected')).toBe(true);
  });

  it('writes junit.xml and summary.md where the flags say, JUnit\'s total time the run\'s wall time', async () => {
    const xml = await readFile(join(dir, 'ci', 'conformance.xml'), 'utf8');
    const wall = (Date.parse(report.finished_at) - Date.parse(report.started_at)) / 1000;
    const total = Number(/<testsuites [^>]*time="([\d.]+)"/.exec(xml)?.[1]);
    expect(total).toBeCloseTo(wall, 2);
    expect(xml).toMatch(new RegExp(`<testsuites [^>]*tests="${report.results.length}" failures="0" errors="0" skipped="0"`));
    const md = await readFile(join(dir, 'step-summary.md'), 'utf8');
    expect(md).toContain(`· ${report.results.length} rules selected (${report.not_selected?.length} not selected)`);
    expect(md).toContain('## Statements of the spec');
    await expect(readFile(join(dir, 'out', 'junit.xml'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('conformance run: flag values that are not values', () => {
  const cases: [string[], RegExp][] = [
    [['run', '--out', '--dry-run'], /^conformance run: --out needs a value, got the flag "--dry-run"/],
    [['run', '--only', '--strict'], /^conformance run: --only needs a value, got the flag "--strict"/],
    [['run', '--junit', '-h'], /^conformance run: --junit needs a value, got the flag "-h"/],
    [['run', '--runs', '0', '--dry-run'], /^conformance run: --runs must be an integer of at least 1, got "0"/],
    [['run', '--runs', '1000000000', '--dry-run'], /^conformance run: --runs must be an integer from 1 to 10000, got "1000000000"/],
    [['run', '--exclude', 'no.such.rule', '--dry-run'], /^conformance run: --exclude matches no rule: "no\.such\.rule"/],
    [['run', '--only', '2.3', '--exclude', '2.3', '--dry-run'], /^conformance run: --exclude leaves no rule to run of --only 2\.3/],
    [['hook-check', 'http://127.0.0.1:9/h', '--out', '--junit'], /^conformance hook-check: --out needs a value, got the flag "--junit"/],
  ];

  for (const [argv, message] of cases) {
    it(`${argv.join(' ')}: exit 2, one line naming the flag`, async () => {
      const r = await conformance(argv, { env: { CLIENT_ID: 'c', CLIENT_SECRET: 's' } });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  }

  it('--runs 10000 is within the bound', async () => {
    const r = await conformance(['run', '--runs', '10000', '--only', '2.3', '--dry-run']);
    expect(r.stderr).not.toContain('--runs');
    expect(r.code).toBe(0);
  });
});
