/**
 * Rules are declarative by default: most are built by a builder (exchangeRule, propertyRule, sweepRule, scenarioRule and
 * the fixtures' builders on them), and spec files hold no ad-hoc judging code: no findings built inline, no casts of
 * parsed JSON, no hand-written relabelling of findings. The files not converted yet are listed, and the list only shrinks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { exchangeRule, propertyRule, rule, scenarioRule, sweepRule } from '../../src/model/define.js';
import { outcomeOf } from '../../src/model/outcome.js';
import { DECLARATIVE_KINDS } from '../../src/model/rule.js';

/**
 * Every rule is built by a declarative builder (issue 22: closure rules, 0): a rule that needs a closure means the
 * toolkit lacks a builder, a step or a check.
 */
const MIN_DECLARATIVE_SHARE = 1;

const SPECS = new URL('../../specs/', import.meta.url);
/** Every file of specs/ that holds rules or their helpers (group files, support.ts, the shared fixtures), as `4.3/history.ts`. */
const specFiles = readdirSync(SPECS, { recursive: true, encoding: 'utf8' }).map((f) => f.replaceAll(sep, '/'))
  .filter((f) => f.endsWith('.ts') && !f.startsWith('requirements/') && f !== 'index.ts' && f !== 'kit.ts' && !f.endsWith('/index.ts'));

/** Ad-hoc judging a spec file should leave to named checks, each with the pattern that finds it. */
const AD_HOC: Record<string, RegExp> = {
  'a finding built inline': /(?<![\w.])(pass|fail|nonStrict|observed)\(/,
  'a cast of parsed JSON': /\bas \{/,
  'findings relabelled by hand': /\.map\(\(\w+\) => \(\{ \.\.\.\w+, (check|detail):/,
};

function adHocIn(file: string): string[] {
  const text = readFileSync(new URL(file, SPECS), 'utf8');
  return Object.entries(AD_HOC).filter(([, re]) => re.test(text)).map(([what]) => what);
}

describe('declarative rules', () => {
  it('builders tag the rules they build, and a free-form rule is a closure', () => {
    const run = async () => outcomeOf([]);
    const meta = { id: 'x.y', title: 'a rule for the test' };
    expect(rule(meta, run).kind).toBe('closure');
    expect(exchangeRule(meta, { send: async () => 1, expect: [] }).kind).toBe('exchange');
    expect(propertyRule(meta, { cases: () => { throw new Error('not run'); }, send: async () => 1, expect: [] }).kind).toBe('property');
    expect(sweepRule(meta, { named: [], judge: async () => [] }).kind).toBe('sweep');
    expect(scenarioRule(meta, { steps: [] }).kind).toBe('scenario');
    expect(DECLARATIVE_KINDS).not.toContain('closure');
  });

  it(`builds at least ${MIN_DECLARATIVE_SHARE * 100}% of the rules with a declarative builder`, () => {
    const rules = allRules();
    const declarative = rules.filter((r) => DECLARATIVE_KINDS.includes(r.kind));
    const share = declarative.length / rules.length;
    expect(share, `${declarative.length} of ${rules.length} rules are declarative; closures: ${rules.filter((r) => r.kind === 'closure').map((r) => r.id).join(', ')}`)
      .toBeGreaterThanOrEqual(MIN_DECLARATIVE_SHARE);
  });

  it('leaves judging to named checks in every spec file', () => {
    const offending = specFiles.flatMap((f) => adHocIn(f).map((what) => `${f}: ${what}`));
    expect(offending).toEqual([]);
  });

  it('casts parsed JSON in no spec file at all (typed field access instead: jsonAt, field, valueField)', () => {
    expect(specFiles.filter((f) => AD_HOC['a cast of parsed JSON']!.test(readFileSync(new URL(f, SPECS), 'utf8')))).toEqual([]);
  });

  it('finds each kind of ad-hoc judging it looks for', () => {
    expect(AD_HOC['a finding built inline']!.test("return t.outcome([fail('x', 'y')])")).toBe(true);
    expect(AD_HOC['a finding built inline']!.test('hookParameterEquals(name)')).toBe(false);
    expect(AD_HOC['a cast of parsed JSON']!.test('(parseJson(res) as { id?: unknown })')).toBe(true);
    expect(AD_HOC['findings relabelled by hand']!.test('.map((f) => ({ ...f, detail: `${c.what}: ${f.detail}` }))')).toBe(true);
  });
});
