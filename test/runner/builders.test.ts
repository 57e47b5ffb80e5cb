/**
 * The builders, run by the runner: what they observe, in which order, and how their findings are named and folded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { valueIs, equals } from '../../src/checks/fields.js';
import { eachStep, exchangeRule, propertyRule, scenarioRule, step, sweepRule } from '../../src/model/define.js';
import { observed } from '../../src/model/outcome.js';
import { defineSpec, type Level, type RuleDraft } from '../../src/model/rule.js';
import type { TargetConfig } from '../../src/model/target.js';
import { runRule } from '../../src/runner/run-rule.js';
import { Masker } from '../../src/secrets/mask.js';
import { sweepStep } from '../../src/steps/sweep-step.js';
import { HttpClient } from '../../src/targets/http.js';

const target: TargetConfig = { kind: 'remote', baseUrl: 'http://127.0.0.1:9', authUrl: 'http://127.0.0.1:9', chatUrl: 'http://127.0.0.1:9', credentials: { clientId: 'c', clientSecret: 's', redirectUri: 'https://r' }, capabilities: [] };

async function run(draft: RuleDraft, level: Level = 'must', runs = 5) {
  const rule = defineSpec({ section: '9', title: 'builders', level, rules: [draft] }).rules[0]!;
  const client = new HttpClient();
  try {
    return await runRule(rule, { target, client, control: undefined, masker: new Masker(), seed: 7, runs, runId: 'r' });
  } finally {
    await client.close();
  }
}

const is = (n: number) => valueIs<number>(equals(n), 'value', 'the value');

describe('scenarioRule', () => {
  it('runs its steps in order under their labels, stops at the first failed one, and tears down whatever happens', async () => {
    const seen: string[] = [];
    const result = await run(scenarioRule<{ n: number }>({ id: 'b.scenario', title: 'three steps, the second fails' }, {
      setup: async () => { seen.push('setup'); return { n: 1 }; },
      steps: [
        step('first', async (_t, f) => { seen.push('first'); return f.n; }, [is(1)]),
        step('second', async () => { seen.push('second'); return 2; }, [is(3)]),
        step('third', async () => { seen.push('third'); return 3; }, [is(3)]),
      ],
      teardown: async () => { seen.push('teardown'); },
    }));
    expect(seen).toEqual(['setup', 'first', 'second', 'teardown']);
    expect(result.status).toBe('failed');
    expect(result.findings?.map((f) => f.check)).toEqual(['first: value', 'second: value']);
  });

  it('tears down after a step that threw, and the rule is errored', async () => {
    let tornDown = false;
    const result = await run(scenarioRule({ id: 'b.throws', title: 'a step that throws' }, {
      steps: [step('boom', async () => { throw new Error('kit bug'); }, [])],
      teardown: async () => { tornDown = true; },
    }));
    expect(tornDown).toBe(true);
    expect(result.status).toBe('errored');
  });

  it('sweeps every item of a sweep step, whatever the others got, and folds them as a sweep rule does', async () => {
    const seen: number[] = [];
    const sweepOf = (items: number[]) => sweepStep<undefined, number, number>({
      items: async () => items, label: (i) => `item ${i}`, what: 'items held',
      observe: async (_t, _f, i) => { seen.push(i); return i; }, expect: (i) => [is(i === 2 ? 0 : i)],
    });
    const failing = await run(scenarioRule({ id: 'b.sweep-step', title: 'a sweep step with a failing item' }, { steps: [sweepOf([1, 2, 3])] }));
    expect(seen).toEqual([1, 2, 3]);
    expect(failing.status).toBe('failed');
    expect(failing.findings?.map((f) => f.check)).toEqual(['item 2: value']);
    const holding = await run(scenarioRule({ id: 'b.sweep-step-held', title: 'a sweep step whose items hold' }, { steps: [sweepOf([1, 3])] }));
    expect(holding.status).toBe('passed');
    expect(holding.findings?.map((f) => `${f.check}: ${f.detail}`)).toEqual(['items held: 2 named cases held']);
  });

  it('repeats an each-step per item, labelled by the item', async () => {
    const result = await run(scenarioRule({ id: 'b.each', title: 'one step per item' }, {
      steps: [eachStep<undefined, number, number>({ items: async () => [1, 2], label: (i) => `item ${i}`, observe: async (_t, _f, i) => i, expect: (i) => [is(i)] })],
    }));
    expect(result.status).toBe('passed');
    expect(result.findings?.map((f) => f.check)).toEqual(['item 1: value', 'item 2: value']);
  });
});

describe('sweepRule and propertyRule', () => {
  it('a failing named case decides the rule before any generated case is tried', async () => {
    const tried: number[] = [];
    const result = await run(sweepRule<number, number>({ id: 'b.sweep-fails', title: 'the sweep fails at 3' }, {
      named: [1, 2, 3],
      cases: () => fc.integer({ min: 10, max: 20 }),
      send: async (_t, n) => { tried.push(n); return n; },
      expect: [valueIs<number>({ expected: 'below 3', test: (v) => typeof v === 'number' && v < 3 }, 'value', 'the case')],
      label: (n) => `case ${n}`,
    }));
    expect(tried).toEqual([1, 2, 3]);
    expect(result.status).toBe('failed');
    expect(result.findings?.map((f) => f.check)).toEqual(['case 3: value']);
  });

  it('after a sweep that held, runs the generated cases and keeps what an info rule observed', async () => {
    let generated = 0;
    const result = await run(sweepRule<number, number>({ id: 'b.sweep-info', title: 'observations of an info rule' }, {
      named: [1, 2],
      cases: () => fc.integer({ min: 10, max: 1_000_000 }),
      send: async (_t, n) => { if (n >= 10) generated += 1; return n; },
      expect: [(n: number) => observed('seen', `value ${n}`)],
      label: (n) => `case ${n}`,
    }), 'info', 4);
    expect(generated).toBe(4);
    expect(result.status).toBe('informational');
    expect(result.detail).toContain('case 1: seen: value 1');
    expect(result.property).toMatchObject({ runs: 4 });
  });

  it('notes a named case the run cannot send, with why, and lets the sent cases decide', async () => {
    const sent: number[] = [];
    const rule = (limit: number) => sweepRule<number, number, { readonly missing: string }>({ id: 'b.sweep-unsent', title: 'case 3 cannot be sent' }, {
      setup: async () => ({ missing: 'set SECOND_THING' }),
      named: [1, 2, 3],
      unsent: (n, f) => (n === 3 ? f.missing : undefined),
      send: async (_t, n) => { sent.push(n); return n; },
      expect: [valueIs<number>({ expected: `below ${limit}`, test: (v) => typeof v === 'number' && v < limit }, 'value', 'the case')],
      label: (n) => `case ${n}`,
    });
    const held = await run(rule(3));
    expect(sent).toEqual([1, 2]);
    expect(held.status).toBe('passed');
    expect(held.detail).toBe('2 named cases held; note: case 3: not sent: set SECOND_THING');
    // The note never hides a failure of the cases that were sent.
    expect((await run(rule(2))).status).toBe('failed');
  });

  it('checks each distinct case once: a named duplicate is dropped, a generated case equal to a checked one is not sent again', async () => {
    const sent: string[] = [];
    const result = await run(sweepRule<{ body: unknown }, string>({ id: 'b.sweep-distinct', title: 'distinct cases once' }, {
      named: [{ body: null }, { body: [] }, { body: null }],
      cases: () => fc.constantFrom({ body: null }, { body: 'fresh' }),
      send: async (_t, c) => { sent.push(JSON.stringify(c.body)); return JSON.stringify(c.body); },
      expect: [(text: string) => observed('seen', text)],
    }), 'info', 8);
    expect(sent.slice(0, 2)).toEqual(['null', '[]']);
    expect(sent.filter((b) => b === 'null')).toHaveLength(1);
    expect(sent.filter((b) => b === '"fresh"')).toHaveLength(1);
    expect(result.findings?.find((f) => f.verdict === 'passed')?.detail).toBe('2 named cases held');
    expect(result.property).toMatchObject({ runs: 8 });
  });

  it('propertyRule sets its fixture up once per run of the rule, not per case', async () => {
    let setups = 0;
    let cases = 0;
    const result = await run(propertyRule<number, number, string>({ id: 'b.property', title: 'one fixture, many cases' }, {
      setup: async () => { setups += 1; return 'fixture'; },
      cases: () => fc.nat(),
      send: async (_t, n, f) => { cases += 1; return f === 'fixture' ? n : -1; },
      expect: [valueIs<number>({ expected: 'a natural number', test: (v) => typeof v === 'number' && v >= 0 }, 'value', 'the case')],
    }), 'must', 6);
    expect(result.status).toBe('passed');
    expect(setups).toBe(1);
    expect(cases).toBe(6);
  });

  it('exchangeRule names its findings after its label', async () => {
    const result = await run(exchangeRule<number>({ id: 'b.label', title: 'a labelled exchange' }, { send: async () => 2, expect: [is(2)], label: 'old secret' }));
    expect(result.findings?.map((f) => f.check)).toEqual(['old secret: value']);
  });
});
