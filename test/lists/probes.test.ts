/**
 * The checks of the §4.2 rules that judge several answers at once (src/checks/list-probes.ts): a record a query must
 * find, an incomplete statuses element refused rather than half-applied, and the records of the info rules.
 */
import { describe, expect, it } from 'vitest';
import {
  bodyObserved, customFieldShapesTried, featureOffObserved, type FetchSeen, fetchFinds, fetchWithin, incompleteElementRefused, listAnswerObserved, nameMatchObserved, pageCountObserved, queryOnListObserved, rangeBoundsObserved, statusPairFound, twoValuesObserved,
} from '../../src/checks/list-probes.js';
import { noServerErrorFor } from '../../src/checks/status.js';
import type { HttpResponse } from '../../src/model/http.js';
import { fail } from '../../src/model/outcome.js';

const res = (status: number, body: unknown = '', type = 'application/hal+json'): HttpResponse => ({
  status, headers: type ? { 'content-type': type } : {}, text: typeof body === 'string' ? body : JSON.stringify(body), durationMs: 1,
});
const fetched = (...ids: number[]): FetchSeen => ({ ok: true, finding: { check: 'list answered', verdict: 'passed', detail: '' }, ids: new Set(ids) });
const refused: FetchSeen = { ok: false, finding: fail('list answered', 'expected a 2xx answer, observed 404'), ids: new Set() };

describe('fetchFinds and fetchWithin (lists.query.finds-by-name)', () => {
  it('passes a fetch holding the record, fails one without it, and passes on the finding of a fetch that went wrong', () => {
    expect(fetchFinds(3, 'query "Ann"')(fetched(1, 3)).verdict).toBe('passed');
    expect(fetchFinds(3, 'query "Ann"')(fetched(1, 2))).toMatchObject({ verdict: 'failed', detail: expect.stringContaining('record 3') });
    expect(fetchFinds(3, 'query "Ann"')(refused)).toBe(refused.finding);
  });

  it('fails records the list does not show, unless the list was cut short', () => {
    expect(fetchWithin(new Set([1, 2]), false)(fetched(1, 2)).verdict).toBe('passed');
    expect(fetchWithin(new Set([1, 2]), false)(fetched(1, 9))).toMatchObject({ verdict: 'failed', detail: expect.stringContaining('ids 9') });
    expect(fetchWithin(new Set([1, 2]), true)(fetched(1, 9)).verdict).toBe('passed');
  });
});

describe('incompleteElementRefused (lists.filter.statuses.incomplete)', () => {
  const element = { missing: 'status_id' as const, present: 'pipeline_id is 7', halfApplied: new Set([1, 2]), whole: new Set([1, 2, 3, 4]) };
  const judge = incompleteElementRefused(element);

  it('passes a 400, and takes another 4xx as non_strict', () => {
    expect(judge({ res: res(400) }).verdict).toBe('passed');
    expect(judge({ res: res(422) }).verdict).toBe('non_strict');
  });

  it('fails a 2xx that applies the key that is there', () => {
    expect(judge({ res: res(200), all: fetched(1, 2) })).toMatchObject({ verdict: 'failed', detail: expect.stringContaining('half-applied: the 2 leads whose pipeline_id is 7, whatever their status_id') });
  });

  it('takes a 2xx that ignores the element, or selects something else, as non_strict', () => {
    expect(judge({ res: res(200), all: fetched(1, 2, 3, 4) })).toMatchObject({ verdict: 'non_strict', detail: expect.stringContaining('ignored') });
    expect(judge({ res: res(200), all: fetched(3) }).verdict).toBe('non_strict');
  });

  it('does not take a half-applied answer for a failure when the key that is there names every lead', () => {
    const all = incompleteElementRefused({ ...element, halfApplied: element.whole });
    expect(all({ res: res(200), all: fetched(1, 2, 3, 4) }).verdict).toBe('non_strict');
  });

  it('judges a whole list that could not be read by its own finding', () => {
    expect(judge({ res: res(200), all: refused })).toBe(refused.finding);
  });
});

describe('the other judging checks of the list rules', () => {
  it('noServerErrorFor names what was sent only on a 5xx', () => {
    expect(noServerErrorFor('{"breaks":"deep-nesting"}')(res(400)).verdict).toBe('passed');
    expect(noServerErrorFor('{"breaks":"deep-nesting"}')(res(500))).toMatchObject({ verdict: 'failed', detail: expect.stringContaining('for {"breaks":"deep-nesting"}') });
  });

  it('customFieldShapesTried and statusPairFound are non_strict when there was nothing to try', () => {
    expect(customFieldShapesTried(new Set(['text'])).verdict).toBe('passed');
    expect(customFieldShapesTried(new Set()).verdict).toBe('non_strict');
    expect(statusPairFound({ pipeline_id: 1, status_id: 2 }).verdict).toBe('passed');
    expect(statusPairFound(undefined).verdict).toBe('non_strict');
  });
});

describe('the info records of §4.2 (reported, never judged)', () => {
  it('range bounds: inclusive, exclusive, refused, or nothing to probe with', () => {
    expect(rangeBoundsObserved({ id: 1, fetch: fetched(1) }).detail).toMatch(/^inclusive/);
    expect(rangeBoundsObserved({ id: 1, fetch: fetched(2) }).detail).toMatch(/^exclusive/);
    expect(rangeBoundsObserved({ id: 1, fetch: refused }).detail).toContain('observed 404');
    expect(rangeBoundsObserved(undefined)).toMatchObject({ verdict: 'informational', detail: expect.stringContaining('nothing to probe') });
  });

  it('name match: each of the three probes found, not found or refused', () => {
    expect(nameMatchObserved({ id: 1, exact: fetched(1), part: fetched(), cased: refused }).detail)
      .toBe('exact name: found; a substring: not found; other letter case: answered expected a 2xx answer, observed 404');
    expect(nameMatchObserved(undefined).verdict).toBe('informational');
  });

  it('query on customers: refused, searched, nothing found, or ignored', () => {
    const page = (n: number) => res(200, { _embedded: { customers: Array.from({ length: n }, (_, i) => ({ id: i + 1 })) } });
    expect(queryOnListObserved({ res: res(400), list: 'customers', seen: 5 }).detail).toBe('refused with 400');
    expect(queryOnListObserved({ res: res(204, ''), list: 'customers', seen: 5 }).detail).toContain('nothing found');
    expect(queryOnListObserved({ res: page(5), list: 'customers', seen: 5 }).detail).toBe('ignored: 5 record(s), as without query');
    expect(queryOnListObserved({ res: page(1), list: 'customers', seen: 5 }).detail).toBe('searched: 1 record(s) of 5');
  });

  it('two values of a field: alternatives when they give the union of the singles', () => {
    expect(twoValuesObserved('checkbox')({ both: fetched(1, 2), singles: [fetched(1), fetched(2)] }).detail).toContain('alternatives (2 = union');
    expect(twoValuesObserved('date')({ both: fetched(1), singles: [fetched(1), fetched(2)] }).detail).toBe("two values gave 1 record(s), the singles' union 2");
    expect(twoValuesObserved('date')({ both: refused, singles: [] }).detail).toContain('two values: expected');
    expect(twoValuesObserved('date_time')(undefined).detail).toBe('no record shows such a field');
  });

  it('the list answer: keys, the count of a page, the body of an empty answer', () => {
    expect(listAnswerObserved(res(200, { _page: 1, _links: {}, _embedded: {} })).detail).toBe('200 application/hal+json; keys: _page, _links, _embedded');
    expect(listAnswerObserved(res(200, 'x', '')).detail).toBe('200 no Content-Type; keys: no JSON body');
    expect(pageCountObserved('limit=500', 'contacts')(res(200, { _embedded: { contacts: [{ id: 1 }] } })).detail).toBe('200, 1 record(s)');
    expect(bodyObserved('nothing matches')(res(204, '', '')).detail).toBe('204, empty body');
  });

  it('feature off: the flag the account gives and what the filter did', () => {
    const flags = res(200, { is_api_filter_enabled: false });
    expect(featureOffObserved({ flags, list: res(204, '') }).detail).toBe('account says is_api_filter_enabled=false; the filter is applied anyway (nothing matches id 1)');
    expect(featureOffObserved({ flags, list: res(200, { _embedded: { leads: [] } }) }).detail).toContain('ignored');
    expect(featureOffObserved({ flags: res(404, ''), list: res(402, '') }).detail).toBe('account says is_api_filter_enabled=undefined; the filter is refused with 402');
  });
});
