/**
 * What a run judged (issue 37 §8): each statement of the inventory with this run's judgement, from the rule results
 * alone: full, partial (naming the rules, places and cases left), none (with why: a control API, a clock, an operator,
 * a setting, the selection), untestable; and the same table in summary.md and report.html.
 */
import { describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { REQUIREMENTS } from '../../specs/requirements/index.js';
import { withRunStatements } from '../../src/cli/run-statements.js';
import type { RuleResult } from '../../src/model/result.js';
import { renderHtml } from '../../src/report/html.js';
import { causeOfSkip, countCauses, countJudgements, judgeStatements, type InventoryStatement } from '../../src/report/statements.js';
import { renderSummary } from '../../src/report/summary.js';
import { makeReport } from './fixture.js';

const result = (id: string, status: RuleResult['status'], detail = '', extra: Partial<RuleResult> = {}): RuleResult =>
  ({ id, section: '4.1', level: 'must', requires: [], status, title: id, duration_ms: 1, detail, ...extra });

const INVENTORY: InventoryStatement[] = [
  { id: 'REQ-a', section: '4.1', level: 'must', rules: ['r.one', 'r.two'] },
  { id: 'REQ-b', section: '4.1', level: 'must', rules: ['r.ctl'] },
  { id: 'REQ-c', section: '4.1', level: 'should', rules: ['r.one'], partial: 'the form-encoded case is not sent' },
  { id: 'REQ-d', section: '2.2', level: 'must', untestable: 'no request can observe the signing key' },
  { id: 'REQ-e', section: '3.1', level: 'must', gap: 'a rule would refresh twice at once' },
  { id: 'REQ-f', section: '3.1', level: 'must', rules: ['r.clock', 'r.op'] },
  { id: 'REQ-g', section: '4.2', level: 'must', rules: ['r.err'] },
];

describe('judgeStatements', () => {
  it('judges fully a statement all of whose rules reached a verdict, in part one with a rule left, naming it and why', () => {
    const out = judgeStatements({
      inventory: INVENTORY,
      results: [result('r.one', 'passed'), result('r.two', 'skipped', 'needs second-account: set ACCOUNT_ID_2 and BASE_URL_2 (another account) or CONTROL_URL (a control API)')],
    });
    const a = out.find((s) => s.id === 'REQ-a')!;
    expect(a).toMatchObject({ judgement: 'partial', rules: ['r.one'] });
    expect(a.left).toEqual(['rule r.two: needs second-account: set ACCOUNT_ID_2 and BASE_URL_2 (another account) or CONTROL_URL (a control API)']);
    const full = judgeStatements({ inventory: INVENTORY.slice(0, 1), results: [result('r.one', 'failed'), result('r.two', 'non_strict')] });
    expect(full[0]).toMatchObject({ judgement: 'full', rules: ['r.one', 'r.two'] });
    expect(full[0]!.left).toBeUndefined();
  });

  it('keeps what the inventory says its rules leave unchecked: such a statement is never judged fully', () => {
    const c = judgeStatements({ inventory: INVENTORY, results: [result('r.one', 'passed')] }).find((s) => s.id === 'REQ-c')!;
    expect(c.judgement).toBe('partial');
    expect(c.left).toEqual(['cases its rules leave: the form-encoded case is not sent']);
  });

  it('says why a statement was not judged: a control API, a clock, an operator, the selection, an error', () => {
    const out = judgeStatements({
      inventory: INVENTORY,
      results: [
        result('r.ctl', 'skipped', 'requires capability `control`: the target has no control API (CONTROL_URL is not set)'),
        result('r.clock', 'skipped', 'needs clock: set CONTROL_URL (a control API) or run --profile soak'),
        result('r.op', 'skipped', 'needs clock: no operator'),
        result('r.err', 'errored', 'no answer from the target: connection reset'),
      ],
      notSelected: ['r.one', 'r.two'],
    });
    const by = Object.fromEntries(out.map((s) => [s.id, s]));
    expect(by['REQ-a']).toMatchObject({ judgement: 'none', cause: 'not-selected', rules: [] });
    expect(by['REQ-b']).toMatchObject({ judgement: 'none', cause: 'control', reason: 'needs a control API' });
    expect(by['REQ-f']).toMatchObject({ judgement: 'none', cause: 'clock' });
    expect(by['REQ-g']).toMatchObject({ judgement: 'none', cause: 'unjudged' });
    expect(by['REQ-g']!.left?.[0]).toContain('errored: no answer from the target');
    expect(by['REQ-d']).toMatchObject({ judgement: 'untestable', reason: 'no request can observe the signing key' });
    expect(by['REQ-e']).toMatchObject({ judgement: 'none', cause: 'no-rule' });
    expect(by['REQ-e']!.reason).toContain('a rule would refresh twice at once');
  });

  it('names a place the statement governs that only unjudged rules reach, and a place no rule reaches', () => {
    const [a] = judgeStatements({
      inventory: INVENTORY.slice(0, 1),
      results: [result('r.one', 'passed'), result('r.two', 'passed')],
      places: [
        { statement: 'REQ-a', place: 'token 2xx', reachedBy: ['r.one'] },
        { statement: 'REQ-a', place: 'account 4xx', reachedBy: [] },
        { statement: 'REQ-a', place: 'chat disconnect', reachedBy: [], unreached: 'the statement excludes it' },
      ],
    });
    expect(a).toMatchObject({ judgement: 'partial', left: ['place account 4xx: no rule of it reaches this place'] });
    const [b] = judgeStatements({
      inventory: INVENTORY.slice(0, 1),
      results: [result('r.one', 'passed'), result('r.two', 'skipped', 'needs operator: no operator at this terminal')],
      places: [{ statement: 'REQ-a', place: 'list leads 4xx', reachedBy: ['r.two'] }],
    });
    expect(b!.left).toEqual(['rule r.two: needs operator: no operator at this terminal', 'place list leads 4xx: reached only by r.two, not judged in this run']);
  });

  it('tells a rule that did not run (interrupted, or absent from the report) from one that ran', () => {
    const [b] = judgeStatements({ inventory: INVENTORY.slice(1, 2), results: [], notRun: ['r.ctl'] });
    expect(b).toMatchObject({ judgement: 'none', cause: 'not-run', left: ['rule r.ctl: not run: the run was interrupted'] });
  });

  it('reads the skip reasons the runner writes', () => {
    expect(causeOfSkip('not selected by --only 4.2')).toBe('not-selected');
    expect(causeOfSkip('not selected by --exclude chat.*')).toBe('not-selected');
    expect(causeOfSkip('runs in another shard than 1/4')).toBe('other-shard');
    expect(causeOfSkip('left out by --budget 200 requests: about 40 requests')).toBe('budget');
    expect(causeOfSkip('requires capability `browser`: Chromium is not installed')).toBe('browser');
    expect(causeOfSkip('requires capability `hook`: HOOK_LISTEN is not set')).toBe('hook');
    expect(causeOfSkip('needs ground-truth: set CONTROL_URL: only a control API shows the records')).toBe('control');
    expect(causeOfSkip('needs operator: run on a terminal')).toBe('operator');
    expect(causeOfSkip('needs long-lived-token: set LONG_LIVED_TOKEN (a token made in the account)')).toBe('setting');
    expect(causeOfSkip('the spec leaves it open')).toBe('skipped');
  });
});

describe('the statements of a run against the inventory', () => {
  const every = allRules().map((r) => result(r.id, 'passed'));

  it('lists every inventory statement once, and judges none "none" when every rule passed', () => {
    const report = withRunStatements(makeReport(every));
    expect(report.statements?.map((s) => s.id)).toEqual(REQUIREMENTS.map((r) => r.id));
    const counts = countJudgements(report.statements!);
    expect(counts.none).toBe(REQUIREMENTS.filter((r) => r.gap !== undefined).length);
    expect(counts.untestable).toBe(REQUIREMENTS.filter((r) => r.untestable !== undefined).length);
    expect(counts.full + counts.partial + counts.none + counts.untestable).toBe(REQUIREMENTS.length);
  });

  it('without a control API, the statements whose rules all need one are not judged, for that reason', () => {
    const needsControl = new Set(allRules().filter((r) => r.requires.includes('control')).map((r) => r.id));
    const results = every.map((r) => (needsControl.has(r.id)
      ? { ...r, status: 'skipped' as const, detail: 'requires capability `control`: the target has no control API (CONTROL_URL is not set)' }
      : r));
    const statements = withRunStatements(makeReport(results)).statements!;
    const onlyControl = REQUIREMENTS.filter((q) => q.rules !== undefined && q.rules.every((id) => needsControl.has(id)));
    expect(onlyControl.length).toBeGreaterThan(0);
    for (const q of onlyControl) expect(statements.find((s) => s.id === q.id)).toMatchObject({ judgement: 'none', cause: 'control' });
    expect(countCauses(statements)).toContainEqual(['control', onlyControl.length]);
  });
});

describe('the statements in summary.md and report.html', () => {
  const report = (() => {
    const base = makeReport([result('r.one', 'passed'), result('r.ctl', 'skipped', 'requires capability `control`: no control API')]);
    return { ...base, statements: judgeStatements({ inventory: INVENTORY, results: base.results, notSelected: ['r.two'] }) };
  })();

  it('summary.md counts them per judgement and lists those not judged or judged in part', () => {
    const md = renderSummary(report);
    expect(md).toContain('## Statements of the spec (7)');
    expect(md).toMatch(/\| judged fully \| 0 \|/);
    expect(md).toMatch(/\| judged in part \| 2 \|/);
    expect(md).toMatch(/\| not judged \| 4 \|/);
    expect(md).toMatch(/\| untestable \| 1 \|/);
    expect(md).toMatch(/\| needs a control API \| 1 \|/);
    expect(md).toMatch(/\| REQ-b \| §4\.1 \| not judged \| needs a control API: rule r\.ctl: requires capability/);
    expect(md).toMatch(/\| REQ-c \| §4\.1 \| judged in part \| cases its rules leave: the form-encoded case is not sent \|/);
    expect(md).not.toMatch(/\| REQ-d \|/); // untestable: counted, not listed
  });

  it('report.html has a section for them', () => {
    const html = renderHtml(report);
    expect(html).toContain('<section class="statements" id="statements">');
    expect(html).toContain('7 statements: 0 judged fully, 2 judged in part, 4 not judged, 1 untestable.');
    expect(html).toMatch(/<tr data-judgement="none"><td><code>REQ-b<\/code>/);
  });
});
