/**
 * The §4.2 checks as the review of 2026-11-26 reads the wording (docs/verdicts.md, "Lists (K18–K22, K34, K35)"):
 * a name matched as a substring and a query hit in any field pass, a refusal of a pattern or a reversed range passes,
 * a body that is not a list is recorded, an open range refused is recorded.
 */
import { describe, expect, it } from 'vitest';
import { emptyOrRefused, namesLiterally } from '../../src/checks/list-safety.js';
import { openRangeRefused, shapeAccepted } from '../../src/checks/filter-meaning.js';
import { allOwnDeals, exactlyOwnDeals, ownDealsFound, type RightsSeen } from '../../src/checks/rights.js';
import { pass } from '../../src/model/outcome.js';
import { hasOpenRange } from '../../src/steps/lists.js';
import type { HttpResponse } from '../../src/model/http.js';

const res = (s: number, body: unknown = '', type = 'application/hal+json'): HttpResponse => ({
  status: s,
  headers: type ? { 'content-type': type } : {},
  text: typeof body === 'string' ? body : JSON.stringify(body),
  durationMs: 1,
});
const page = (records: unknown[]) => res(200, { _embedded: { leads: records } });

describe('namesLiterally (K35)', () => {
  const name = namesLiterally('leads', '_', 'equals');
  const query = namesLiterally('leads', '%', 'contains');

  it('passes an exact name, a substring in any letter case, an empty answer and any refusal', () => {
    expect(name(page([{ id: 1, name: '_' }])).verdict).toBe('passed');
    expect(name(page([{ id: 1, name: 'Lead_1' }])).verdict).toBe('passed');
    expect(namesLiterally('leads', "o'b", 'equals')(page([{ id: 1, name: "O'Brien" }])).verdict).toBe('passed');
    expect(name(res(204, '', '')).verdict).toBe('passed');
    expect(name(res(400, { title: 'Bad Request' })).verdict).toBe('passed');
    expect(name(res(422, { title: 'Unprocessable' })).verdict).toBe('passed');
  });

  it('passes a query hit in any field of the record, not only the name', () => {
    expect(query(page([{ id: 1, name: 'Ann', custom_fields_values: [{ field_id: 5, values: [{ value: '100% sure' }] }] }])).verdict).toBe('passed');
    expect(query(page([{ id: 1, name: 'Ann', email: 'a%b@example.com' }])).verdict).toBe('passed');
  });

  it('fails a record that does not hold the value: the value acted as a pattern', () => {
    expect(name(page([{ id: 1, name: 'Lead 1' }])).verdict).toBe('failed');
    expect(query(page([{ id: 1, name: 'Ann', _links: { self: { href: 'http://x/%' } } }])).verdict).toBe('failed');
  });

  it('records a 2xx body that is not a list (the list body is not shown)', () => {
    expect(name(res(200, { items: [] }, 'application/json')).verdict).toBe('informational');
  });
});

describe('emptyOrRefused (K34)', () => {
  const check = emptyOrRefused('leads');
  it('passes an empty answer and any 4xx, fails records, records a body that is not a list', () => {
    expect(check(res(204, '', '')).verdict).toBe('passed');
    expect(check(page([])).verdict).toBe('passed');
    expect(check(res(400)).verdict).toBe('passed');
    expect(check(res(422)).verdict).toBe('passed');
    expect(check(page([{ id: 1 }])).verdict).toBe('failed');
    expect(check(res(200, { data: [] }, 'application/json')).verdict).toBe('informational');
  });
});

describe('open ranges (K18)', () => {
  it('knows a range with one bound', () => {
    expect(hasOpenRange([{ kind: 'range', field: 'price', from: 1 }])).toBe(true);
    expect(hasOpenRange([{ kind: 'cf-range', fieldId: 1, fieldType: 'numeric', to: 1 }])).toBe(true);
    expect(hasOpenRange([{ kind: 'range', field: 'price', from: 1, to: 2 }])).toBe(false);
  });

  it('records the refusal of an open range, fails the refusal of a stated shape', () => {
    expect(openRangeRefused('leads price from', 400).verdict).toBe('informational');
    expect(shapeAccepted('leads price from', true)(res(400)).verdict).toBe('informational');
    expect(shapeAccepted('leads price from', true)(res(204, '', '')).verdict).toBe('passed');
    expect(shapeAccepted('leads price range')(res(400)).verdict).toBe('failed');
    expect(shapeAccepted('customers without a filter')(res(404)).verdict).toBe('failed');
  });
});

describe('parameters combined (K20)', () => {
  it('passes two parameters together as a subset of each, records exactly the union, fails one parameter ignored', async () => {
    const { together } = await import('../../src/checks/filter-meaning.js');
    const names = { both: 'A and B', a: 'A', b: 'B' };
    const clauses = [{ kind: 'values', field: 'id', values: [1] }, { kind: 'values', field: 'created_by', values: [2] }] as const;
    const a = new Set([1, 2, 3]);
    const b = new Set([3, 4]);
    expect(together('leads', new Set([3]), a, b, names, clauses).map((f) => f.verdict)).toEqual(['passed', 'passed']);
    expect(together('leads', new Set([1, 2, 3, 4]), a, b, names, clauses).map((f) => f.verdict)).toEqual(['informational']);
    expect(together('leads', new Set([1, 2, 3]), a, b, names, clauses).map((f) => f.verdict)).toContain('failed');
  });

  it('reads a record against all the parameters, or any of them', async () => {
    const { satisfies } = await import('../../src/checks/filter-meaning.js');
    const r = { id: 1, created_by: 5 };
    const clauses = [{ kind: 'values', field: 'id', values: [1] }, { kind: 'values', field: 'created_by', values: [2] }] as const;
    expect(satisfies(r, clauses, 'strict')).toBe(false);
    expect(satisfies(r, clauses, 'strict', 'any')).toBe(true);
    expect(satisfies({ id: 2 }, clauses, 'strict', 'any')).toBe(undefined);
    expect(satisfies({ id: 2, created_by: 3 }, clauses, 'strict', 'any')).toBe(false);
  });
});

describe('equivalentSpellings (REQ-4.2-encodings-equivalent)', () => {
  it('passes the same records, fails a difference (R2-A12)', async () => {
    const { equivalentSpellings } = await import('../../src/checks/filter-meaning.js');
    expect(equivalentSpellings('x', new Set([1, 2]), new Set([2, 1]), 'raw', 'percent').verdict).toBe('passed');
    expect(equivalentSpellings('x', new Set([1, 2]), new Set([1, 2, 3]), 'raw', 'percent').verdict).toBe('failed');
  });
});

describe('rights checks record what they could not judge (§2.12, K12)', () => {
  const seen = (records: { id: number; responsible_user_id?: number }[]): RightsSeen =>
    ({ ok: true, finding: pass('read'), records, ids: new Set(records.map((r) => r.id)) });

  it('records deals that show no responsible user, fails one of another user, passes his own', () => {
    expect(allOwnDeals(7)(seen([{ id: 1 }, { id: 2, responsible_user_id: 7 }])).verdict).toBe('informational');
    expect(allOwnDeals(7)(seen([{ id: 1 }, { id: 2, responsible_user_id: 8 }])).verdict).toBe('failed');
    expect(allOwnDeals(7)(seen([{ id: 2, responsible_user_id: 7 }])).verdict).toBe('passed');
  });

  it('records a read of his deals that could not be known whole, judges one that could', () => {
    expect(exactlyOwnDeals(undefined, 'the administrator\'s list')(seen([{ id: 1 }])).verdict).toBe('informational');
    expect(exactlyOwnDeals(new Set([1]), 'the list')(seen([{ id: 1 }])).verdict).toBe('passed');
    expect(exactlyOwnDeals(new Set([1, 2]), 'the list')(seen([{ id: 1 }])).verdict).toBe('failed');
  });

  it('records that his own deals were not tried when none is known', () => {
    const [none] = ownDealsFound([], 'the first page');
    expect(none!(res(200, { _embedded: { leads: [] } })).verdict).toBe('informational');
  });
});
