import { describe, expect, it } from 'vitest';
import { acceptedOrRefused, eachAnswered, eachAnsweredOrBusy, oneValueAmongAccepted, oneValueAt, type RepeatSeen, repeatsAnswered, sameHistoryAs, textOneOf } from '../../src/checks/races.js';
import type { HttpResponse } from '../../src/model/http.js';

const res = (s: number, body: unknown = {}): HttpResponse => ({ status: s, headers: { 'content-type': 'application/json' }, text: JSON.stringify(body), durationMs: 1 });

describe('eachAnswered', () => {
  it('passes every answer with the code, is non_strict on another 2xx, fails anything else', () => {
    expect(eachAnswered(200)([res(200), res(200)]).verdict).toBe('passed');
    expect(eachAnswered(200)([res(200), res(201)]).verdict).toBe('non_strict');
    const f = eachAnswered(200)([res(200), res(409)]);
    expect(f.verdict).toBe('failed');
    expect(f.detail).toContain('200, 409');
  });
});

describe('acceptedOrRefused', () => {
  it('passes one or more 200 with the rest 4xx, fails none accepted or a 3xx among them', () => {
    expect(acceptedOrRefused([res(200), res(409), res(200)]).verdict).toBe('passed');
    expect(acceptedOrRefused([res(200), res(200)]).detail).toBe('2 of 2 accepted');
    expect(acceptedOrRefused([res(409), res(400)]).verdict).toBe('failed');
    expect(acceptedOrRefused([res(200), res(302)]).verdict).toBe('failed');
  });
});

describe('oneValueAt', () => {
  it('passes one non-empty string in every answer, fails two values or a missing one', () => {
    expect(oneValueAt('scope_id')([res(200, { scope_id: 'a' }), res(200, { scope_id: 'a' })]).verdict).toBe('passed');
    const two = oneValueAt('scope_id')([res(200, { scope_id: 'a' }), res(200, { scope_id: 'b' })]);
    expect(two.verdict).toBe('failed');
    expect(two.detail).toContain('observed 2');
    expect(oneValueAt('scope_id')([res(200, {}), res(200, {})]).verdict).toBe('failed');
    expect(oneValueAt('scope_id')([res(200, { scope_id: '' })]).verdict).toBe('failed');
  });
});

describe('sameHistoryAs', () => {
  const seen = (how: RepeatSeen['how'], held: number, total = held, statuses = [200, 200]): RepeatSeen => ({ how, answers: statuses.map((s) => res(s)), msgid: 'm', held, total });

  it('passes the counts the sequential sends left, whatever they were, and fails any other', () => {
    expect(sameHistoryAs(seen('in sequence', 1))(seen('in parallel', 1)).verdict).toBe('passed');
    expect(sameHistoryAs(seen('in sequence', 8))(seen('in parallel', 8)).verdict).toBe('passed');
    const split = sameHistoryAs(seen('in sequence', 1))(seen('in parallel', 2));
    expect(split.verdict).toBe('failed');
    expect(split.detail).toContain('1 element(s) under the msgid');
    expect(sameHistoryAs(seen('in sequence', 1, 1))(seen('in parallel', 1, 2)).verdict).toBe('failed');
  });

  it('judges the parallel answers through repeatsAnswered', () => {
    expect(repeatsAnswered(seen('in parallel', 1, 1, [200, 409])).verdict).toBe('passed');
    expect(repeatsAnswered(seen('in parallel', 0, 0, [409, 409])).verdict).toBe('failed');
  });
});

describe('textOneOf', () => {
  it('passes a text among those sent, fails another text or a missing message', () => {
    const items = [{ message: { client_id: 'm', text: 'edit 3' } }];
    expect(textOneOf('m', ['edit 1', 'edit 3'])(items).verdict).toBe('passed');
    expect(textOneOf('m', ['edit 1'])(items).verdict).toBe('failed');
    expect(textOneOf('x', ['edit 3'])(items).verdict).toBe('failed');
  });
});

describe('eachAnsweredOrBusy (C23 of the review)', () => {
  it('passes each 200, is non_strict for 409/429 beside a 200, fails without any success', () => {
    expect(eachAnsweredOrBusy(200)([res(200), res(200)]).verdict).toBe('passed');
    expect(eachAnsweredOrBusy(200)([res(200), res(409), res(429)]).verdict).toBe('non_strict');
    expect(eachAnsweredOrBusy(200)([res(200), res(201)]).verdict).toBe('non_strict');
    expect(eachAnsweredOrBusy(200)([res(409), res(409)]).verdict).toBe('failed');
    expect(eachAnsweredOrBusy(200)([res(200), res(302)]).verdict).toBe('failed');
  });
});

describe('oneValueAmongAccepted', () => {
  it('judges only the successful answers', () => {
    expect(oneValueAmongAccepted('scope_id')([res(200, { scope_id: 'a' }), res(409, { error: 'busy' }), res(200, { scope_id: 'a' })]).verdict).toBe('passed');
    expect(oneValueAmongAccepted('scope_id')([res(200, { scope_id: 'a' }), res(200, { scope_id: 'b' }), res(409)]).verdict).toBe('failed');
    expect(oneValueAmongAccepted('scope_id')([res(409), res(409)]).verdict).toBe('failed');
  });
});
