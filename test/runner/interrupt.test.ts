/**
 * The suite runner told to stop (src/runner/interrupt.ts): no rule starts after the signal, a rule that ends within
 * the grace keeps its verdict, one still running after it is abandoned (errored, saying so), and every rule not
 * started is listed as not run. The end of the grace is the only clock here, and nothing waits on it to be short.
 */
import { describe, expect, it } from 'vitest';
import { rule } from '../../src/model/define.js';
import { outcomeOf, pass } from '../../src/model/outcome.js';
import { defineSpec } from '../../src/model/rule.js';
import type { TargetConfig } from '../../src/model/target.js';
import { Interruption, watchSignals } from '../../src/runner/interrupt.js';
import { runSuite } from '../../src/runner/run-suite.js';
import { Masker } from '../../src/secrets/mask.js';
import { HttpClient } from '../../src/targets/http.js';

const target: TargetConfig = { kind: 'remote', baseUrl: 'http://127.0.0.1:9', authUrl: 'http://127.0.0.1:9', chatUrl: 'http://127.0.0.1:9', credentials: { clientId: 'c', clientSecret: 's', redirectUri: 'https://r' }, capabilities: [] };

describe('a suite told to stop', () => {
  it('keeps the verdict of a rule that ends in the grace, abandons one that does not, and lists the rest as not run', async () => {
    const stop = new Interruption(50);
    let releaseQuick!: () => void;
    const quickMayEnd = new Promise<void>((resolve) => { releaseQuick = resolve; });
    const bothStarted: string[] = [];
    const started = (id: string) => { bothStarted.push(id); if (bothStarted.length === 2) stop.stop('SIGINT'); };
    const rules = defineSpec({ section: '4.1', title: 'stopping', level: 'must', rules: [
      rule({ id: 'x.first', title: 'passes at once' }, async () => outcomeOf([pass('c')])),
      // Ends once the signal came: within the grace.
      rule({ id: 'x.quick', title: 'ends after the signal' }, async () => { started('x.quick'); await quickMayEnd; return outcomeOf([pass('c')]); }),
      // Never ends.
      rule({ id: 'x.stuck', title: 'never ends' }, async () => { started('x.stuck'); releaseQuick(); return new Promise(() => {}); }),
      rule({ id: 'x.later', title: 'would start next' }, async () => outcomeOf([pass('c')])),
      rule({ id: 'x.unselected', title: 'not selected' }, async () => outcomeOf([pass('c')])),
    ] }).rules;
    const seen: string[] = [];
    const client = new HttpClient();
    const results = await runSuite(
      { target, client, control: undefined, masker: new Masker(), seed: 1, runs: 1, runId: 'r' },
      { rules, skip: (r) => (r.id === 'x.unselected' ? 'not selected' : undefined), concurrency: 2, interruption: stop, onResult: (r) => seen.push(r.id) },
    );
    await client.close();
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(byId['x.first']?.status).toBe('passed');
    expect(byId['x.quick']?.status).toBe('passed');
    expect(byId['x.stuck']).toMatchObject({ status: 'errored', detail: expect.stringMatching(/^abandoned: interrupted by SIGINT/) });
    expect(byId['x.later']).toMatchObject({ status: 'skipped', detail: expect.stringMatching(/^not run: the run was interrupted by SIGINT/) });
    expect(byId['x.unselected']).toMatchObject({ status: 'skipped', detail: 'not selected' });
    expect(stop.record()).toMatchObject({ signal: 'SIGINT', not_run: ['x.later'], abandoned: ['x.stuck'] });
    // The progress hears of what ran and of what was abandoned, not of what never started.
    expect(seen).not.toContain('x.later');
    expect(seen).toContain('x.stuck');
  });

  it('has no record and changes nothing when no signal came', async () => {
    const stop = new Interruption();
    const rules = defineSpec({ section: '4.1', title: 'plain', level: 'must', rules: [rule({ id: 'x.one', title: 'passes' }, async () => outcomeOf([pass('c')]))] }).rules;
    const client = new HttpClient();
    const results = await runSuite({ target, client, control: undefined, masker: new Masker(), seed: 1, runs: 1, runId: 'r' }, { rules, skip: () => undefined, concurrency: 1, interruption: stop });
    await client.close();
    expect(results.map((r) => r.status)).toEqual(['passed']);
    expect(stop.record()).toBeUndefined();
  });
});

describe('the signal watch', () => {
  it('stops the run at the first signal, exits with its code at the second, and stops listening when disposed', () => {
    const exits: number[] = [];
    const lines: string[] = [];
    const before = process.listenerCount('SIGTERM');
    const watch = watchSignals({ log: (l) => lines.push(l), exit: (code) => exits.push(code) });
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    process.emit('SIGTERM', 'SIGTERM');
    expect(watch.interruption.signal).toBe('SIGTERM');
    expect(exits).toEqual([]);
    process.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([143]);
    expect(watch.interruption.signal).toBe('SIGTERM');
    expect(lines[0]).toMatch(/SIGTERM: stopping/);
    watch.dispose();
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
