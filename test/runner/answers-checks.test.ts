/** The judges of several answers sent together and of what one status means (src/checks/answers.ts). */
import { describe, expect, it } from 'vitest';
import { eachAnswer, notAnsweredWith } from '../../src/checks/answers.js';
import { status, statusIn } from '../../src/checks/status.js';
import type { HttpResponse } from '../../src/model/http.js';

const res = (s: number): HttpResponse => ({ status: s, headers: {}, text: '', durationMs: 1 });

describe('eachAnswer', () => {
  it('passes when every answer passes, listing the statuses', () => {
    const f = eachAnswer(statusIn(200))([res(200), res(200)]);
    expect(f.verdict).toBe('passed');
    expect(f.detail).toContain('2 answers');
  });

  it('gives the worst finding, naming which answer it judged', () => {
    const judge = eachAnswer(status(200, { also: [409] }));
    const busy = judge([res(200), res(409), res(200)]);
    expect(busy.verdict).toBe('non_strict');
    expect(busy.detail).toMatch(/^answer 2 of 3: /);
    const failed = judge([res(200), res(409), res(400)]);
    expect(failed.verdict).toBe('failed');
    expect(failed.detail).toMatch(/^answer 3 of 3: /);
    expect(failed.check).toBe('each: status 200');
  });

  it('keeps the strictness of the check it applies: another 2xx fails statusIn, not status', () => {
    expect(eachAnswer(statusIn(200))([res(200), res(201)]).verdict).toBe('failed');
    expect(eachAnswer(status(200))([res(200), res(201)]).verdict).toBe('non_strict');
  });

  it('fails when there is no answer to judge', () => {
    expect(eachAnswer(statusIn(200))([]).verdict).toBe('failed');
  });
});

describe('notAnsweredWith', () => {
  const judge = notAnsweredWith(403, 'query not signed', 'refused as if the query were signed');

  it('fails the one status, saying what it means', () => {
    const f = judge(res(403));
    expect(f.verdict).toBe('failed');
    expect(f.detail).toBe('refused as if the query were signed');
  });

  it('passes any other status, for the status check beside it to judge', () => {
    expect(judge(res(200)).verdict).toBe('passed');
    expect(judge(res(400)).verdict).toBe('passed');
  });
});
