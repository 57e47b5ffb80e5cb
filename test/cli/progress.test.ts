/**
 * Progress on stderr: a bar on a terminal, plain lines in CI or when stderr is not a terminal; every line through
 * the run's masker.
 */
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/model/outcome.js';
import type { RuleResult } from '../../src/model/result.js';
import { Masker, maskSecret } from '../../src/secrets/mask.js';
import { Progress, requestsLeft, type ProgressStream } from '../../src/cli/progress.js';

/** Collects what is written, claiming to be a terminal or not. */
function fakeStream(isTTY: boolean): ProgressStream & { text: string } {
  const stream = { isTTY, columns: 160, text: '', write: (chunk: string) => ((stream.text += chunk), true) };
  return stream as unknown as ProgressStream & { text: string };
}

const result = (id: string, status: Verdict, detail = ''): RuleResult => ({
  id, status, detail, section: '2.3', level: 'must', requires: [], title: id, duration_ms: 1,
});

const SECRET = 'sk_live_0123456789abcdef';

describe('progress in CI and when stderr is not a terminal', () => {
  it('writes a plain line every tenth of the run with the elapsed time, and one per failed or errored rule, masked', () => {
    const out = fakeStream(false);
    let now = 1_000;
    const masker = new Masker();
    masker.add(SECRET);
    const progress = new Progress({ total: 20, stream: out, masker, ci: false, now: () => now });
    expect(progress.interactive).toBe(false);
    for (let i = 1; i <= 20; i++) {
      now += 500;
      progress.onResult(result(`rule.${i}`, i === 5 ? 'failed' : i === 9 ? 'errored' : 'passed', i === 5 ? `expected 200, observed token ${SECRET}` : 'boom'));
    }
    progress.end();
    const lines = out.text.trimEnd().split('\n');
    expect(lines).toContain(`failed: rule.5: expected 200, observed token ${maskSecret(SECRET)}`);
    expect(lines).toContain('errored: rule.9: boom');
    expect(lines.filter((l) => l.startsWith('progress: '))).toHaveLength(10);
    expect(lines.at(-1)).toBe('progress: 20/20 rules, 1 failed, 1 errored, 10 s');
    expect(out.text).not.toContain(SECRET);
    expect(out.text).not.toContain('\x1b['); // no cursor movement in a log
  });

  it('stays plain on a terminal when CI is set', () => {
    const out = fakeStream(true);
    const progress = new Progress({ total: 2, stream: out, ci: true, now: () => 0 });
    expect(progress.interactive).toBe(false);
    progress.onResult(result('a', 'passed'));
    progress.onResult(result('b', 'passed'));
    progress.end();
    expect(out.text).toBe('progress: 1/2 rules, 0 failed, 0 errored, 0 s\nprogress: 2/2 rules, 0 failed, 0 errored, 0 s\n');
  });
});

describe('requests left', () => {
  it('says how many requests the rules not yet done sent last time, and how long they take at the rate limit', () => {
    const out = fakeStream(false);
    const expectedRequests = new Map([['a', 700], ['b', 140], ['c', 0]]);
    const progress = new Progress({ total: 3, stream: out, ci: true, expectedRequests, rateLimitRps: 7, now: () => 0 });
    progress.onResult(result('a', 'passed'));
    progress.onResult(result('b', 'passed'));
    progress.onResult(result('c', 'passed'));
    expect(out.text.split('\n')[0]).toBe('progress: 1/3 rules, 0 failed, 0 errored, 0 s, ~140 requests left (≈ 20 s at 7/s)');
    expect(out.text.split('\n')[2]).toBe('progress: 3/3 rules, 0 failed, 0 errored, 0 s');
    expect(requestsLeft(2_940, 7)).toBe('~2,940 requests left (≈ 7 min at 7/s)');
    expect(requestsLeft(50, undefined)).toBe('~50 requests left');
  });
});

describe('progress on a terminal', () => {
  it('draws a bar with rules done / total, failures so far and elapsed time, keeps a line per failure, and clears the bar at the end', async () => {
    const out = fakeStream(true);
    const progress = new Progress({ total: 4, stream: out, ci: false });
    expect(progress.interactive).toBe(true);
    progress.onResult(result('oauth.one', 'passed'));
    progress.onResult(result('oauth.two', 'failed', 'expected 400'));
    await new Promise((r) => setTimeout(r, 250)); // cli-progress redraws ten times a second
    const midway = out.text;
    expect(midway).toMatch(/2\/4 rules \| 1 failed, 0 errored \| \d+s \| oauth\.two/);
    expect(midway).toContain('✗ failed oauth.two\n');
    expect(midway).toContain('\x1b['); // drawn in place, not as a new line each time

    progress.onResult(result('oauth.three', 'errored', 'timeout'));
    progress.onResult(result('oauth.four', 'passed'));
    progress.end();
    expect(out.text).toMatch(/4\/4 rules \| 1 failed, 1 errored/);
    expect(out.text).toContain('! errored oauth.three\n');
    expect(out.text).not.toContain('expected 400'); // details are for the report; the terminal names the rule
    expect(out.text.endsWith('\x1b[?7h\x1b[1G\x1b[0J')).toBe(true); // line wrapping restored, the bar cleared
  });

  it('passes the bar and the failure lines through the masker', () => {
    const out = fakeStream(true);
    const masker = new Masker();
    const id = `chat.${SECRET}`; // contrived: a rule id that holds a secret must still not reach the terminal
    masker.add(SECRET);
    const progress = new Progress({ total: 1, stream: out, masker, ci: false });
    progress.onResult(result(id, 'failed'));
    progress.end();
    expect(out.text).toContain('✗ failed chat.sk_l…');
    expect(out.text).toMatch(/1\/1 rules \| 1 failed, 0 errored \| \d+s \| chat\.sk_l…[0-9a-f]{6}/);
    expect(out.text).not.toContain(SECRET);
  });
});
