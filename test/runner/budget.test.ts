/**
 * --budget: rules taken by what they catch per request while they fit, the rest named with why; a budget given as a
 * duration is turned into requests at the rate limit.
 */
import { describe, expect, it } from 'vitest';
import { parseBudget, planBudget, worthOf } from '../../src/runner/budget.js';

const rules = [
  { id: 'lists.union', level: 'must' as const },
  { id: 'token.type', level: 'must' as const },
  { id: 'page.info', level: 'info' as const },
  { id: 'chat.new', level: 'should' as const },
];

describe('budget', () => {
  it('weighs a fault a rule alone catches in full and a shared one in part, plus the level', () => {
    const worth = worthOf(rules, [['lists.union'], ['token.type', 'chat.new'], ['token.type']]);
    expect(Object.fromEntries(worth)).toEqual({ 'lists.union': 2, 'token.type': 2.5, 'page.info': 0, 'chat.new': 1 });
  });

  it('takes the rules that catch most per request while they fit and names the others with why', () => {
    const costs = new Map([['lists.union', 186], ['token.type', 3], ['page.info', 40], ['chat.new', 10]]);
    const faults = [['lists.union'], ['token.type', 'chat.new'], ['token.type']];
    const plan = planBudget({ rules, costs, faults, requests: 100 });
    expect([...plan.leftOut.keys()]).toEqual(['lists.union']);
    expect(plan.expectedRequests).toBe(53);
    expect(plan.leftOut.get('lists.union')).toMatch(/^left out by --budget 100 requests: about 186 requests/);
    const tight = planBudget({ rules, costs, faults, requests: 20 });
    expect([...tight.leftOut.keys()].sort()).toEqual(['lists.union', 'page.info']);
    expect(tight.expectedRequests).toBe(13);
  });

  it('takes a rule whose cost is not known yet, and one that sends nothing', () => {
    const plan = planBudget({ rules, costs: new Map([['lists.union', 500], ['page.info', 0]]), faults: [], requests: 10 });
    expect([...plan.leftOut.keys()]).toEqual(['lists.union']);
  });

  it('reads requests or a duration at the rate limit, and refuses anything else', () => {
    expect(parseBudget('2000', undefined)).toBe(2000);
    expect(parseBudget('300s', 7)).toBe(2100);
    expect(parseBudget('5m', 7)).toBe(2100);
    expect(() => parseBudget('5m', undefined)).toThrow(/RATE_LIMIT_RPS/);
    expect(() => parseBudget('lots', 7)).toThrow(/number of requests/);
    expect(() => parseBudget('0', 7)).toThrow(/at least 1/);
  });
});
