import { describe, expect, it } from 'vitest';
import { addCalendarMonthsUtc, Clock } from '../../src/emulator/clock.js';

describe('Clock', () => {
  it('is real time plus an offset that only moves forward', () => {
    let real = 1_700_000_000_500;
    const clock = new Clock(() => real);
    expect(clock.nowSeconds()).toBe(1_700_000_000);
    clock.advance(60);
    expect(clock.nowMs()).toBe(1_700_000_060_500);
    real += 1000;
    expect(clock.nowSeconds()).toBe(1_700_000_061);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(0.5)).toThrow(RangeError);
    clock.reset();
    expect(clock.nowMs()).toBe(real);
  });
});

describe('addCalendarMonthsUtc', () => {
  const at = (iso: string): number => Date.parse(iso);
  it.each([
    ['2024-01-15T10:00:00Z', '2024-04-15T10:00:00.000Z'],
    ['2024-11-30T12:00:00Z', '2025-02-28T12:00:00.000Z'],
    ['2023-11-30T12:00:00Z', '2024-02-29T12:00:00.000Z'],
    ['2024-05-31T23:59:59Z', '2024-08-31T23:59:59.000Z'],
    ['2024-03-31T00:00:00Z', '2024-06-30T00:00:00.000Z'],
    ['2024-10-15T00:00:00Z', '2025-01-15T00:00:00.000Z'],
  ])('%s + 3 months = %s', (from, to) => {
    expect(new Date(addCalendarMonthsUtc(at(from), 3)).toISOString()).toBe(to);
  });
});
