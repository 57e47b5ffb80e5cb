/**
 * Operator steps: the question on the terminal, the answers (done, skip, a pasted value, nobody there), one question
 * at a time, and the skip reason without a terminal.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SkipRule } from '../../src/errors.js';
import { withNeeds } from '../../src/needs/dispatch.js';
import type { RuleContext } from '../../src/model/context.js';
import { askOperator, OperatorDesk, operatorStep } from '../../src/steps/live-operator.js';

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d) => (shown += d));
  return { input, output, shown: () => shown };
}

describe('askOperator', () => {
  it('asks on the output and takes Enter as done', async () => {
    const io = terminal();
    const answer = askOperator('deactivate the installation in account 7', io);
    await new Promise((r) => setImmediate(r));
    expect(io.shown()).toContain('operator step: deactivate the installation in account 7 (or type s and Enter to skip this rule): ');
    io.input.write('\n');
    expect(await answer).toEqual({ kind: 'done', text: '' });
  });

  it('takes s as a skip, a line as the value asked for, and a closed input or the time limit as nobody there', async () => {
    const skip = terminal();
    const a = askOperator('revoke it', skip);
    skip.input.write('s\n');
    expect(await a).toEqual({ kind: 'skipped' });

    const value = terminal();
    const b = askOperator('paste the new key', value);
    value.input.write('  new-secret-key \n');
    expect(await b).toEqual({ kind: 'done', text: 'new-secret-key' });

    const closed = terminal();
    const c = askOperator('disconnect it', closed);
    closed.input.end();
    expect(await c).toEqual({ kind: 'timed-out' });

    const silent = terminal();
    expect(await askOperator('disconnect it', { ...silent, timeoutMs: 20 })).toEqual({ kind: 'timed-out' });
  });
});

describe('OperatorDesk', () => {
  it('asks one question at a time, in the order the rules asked', async () => {
    const io = terminal();
    const desk = new OperatorDesk(io);
    const first = desk.ask('first act');
    const second = desk.ask('second act');
    await new Promise((r) => setImmediate(r));
    expect(io.shown()).toContain('first act');
    expect(io.shown()).not.toContain('second act');
    io.input.write('\n');
    expect(await first).toEqual({ kind: 'done', text: '' });
    await new Promise((r) => setImmediate(r));
    expect(io.shown()).toContain('second act');
    io.input.write('s\n');
    expect(await second).toEqual({ kind: 'skipped' });
  });
});

describe('operatorStep', () => {
  const target = (o: { control?: boolean; interactive?: boolean }) => ({
    kind: 'remote', baseUrl: 'https://a.example', authUrl: 'https://a.example', chatUrl: 'https://a.example', credentials: { clientId: 'c', clientSecret: 's', redirectUri: 'https://i.example/cb' },
    capabilities: o.control ? ['control'] : [], interactive: o.interactive ?? false,
  });

  it('does the act through the control API when the target has one', async () => {
    let done = 0;
    const t = withNeeds({ target: target({ control: true }) } as unknown as RuleContext);
    await operatorStep(t, { instruction: 'deactivate it', control: async () => { done += 1; } });
    expect(done).toBe(1);
  });

  it('skips without a terminal, saying what to do and what would let it run', async () => {
    const t = withNeeds({ target: target({ interactive: false }) } as unknown as RuleContext);
    const err = await operatorStep(t, { instruction: 'deactivate the installation in account 7', control: async () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SkipRule);
    expect((err as SkipRule).reason).toMatch(/^needs operator \(deactivate the installation in account 7\): .*run the kit on a terminal.*CONTROL_URL/);
  });
});
