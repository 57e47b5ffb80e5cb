import { describe, expect, it } from 'vitest';
import { rule } from '../../src/model/define.js';
import { outcomeOf } from '../../src/model/outcome.js';
import { defineSpec } from '../../src/model/rule.js';
import { curlOf } from '../../src/runner/curl.js';
import { ruleSeed } from '../../src/runner/seed.js';
import { selector } from '../../src/runner/select.js';

const r = (id: string, section: string) => defineSpec({ section, title: section, level: 'must', rules: [rule({ id, title: id }, async () => outcomeOf([]))] }).rules[0]!;

describe('--only selector', () => {
  it('matches id globs', () => {
    const s = selector('oauth.token.*');
    expect(s(r('oauth.token.code-reuse', '3.1'))).toBe(true);
    expect(s(r('chat.signature.method', '5.2'))).toBe(false);
  });
  it('matches section prefixes by whole components', () => {
    const s = selector('4.1');
    expect(s(r('a', '4.1'))).toBe(true);
    expect(s(r('b', '4.1.2'))).toBe(true);
    expect(s(r('c', '4.10'))).toBe(false);
    expect(selector('4')(r('d', '4.3'))).toBe(true);
  });
  it('accepts a comma-separated list and selects everything without a pattern', () => {
    const s = selector('5.2, oauth.*');
    expect(s(r('x', '5.2'))).toBe(true);
    expect(s(r('oauth.a', '3.1'))).toBe(true);
    expect(s(r('y', '4.2'))).toBe(false);
    expect(selector(undefined)(r('z', '9'))).toBe(true);
  });
});

describe('rule seeds', () => {
  it('are stable for a run seed and a rule id, and differ between rules and seeds', () => {
    expect(ruleSeed(42, 'a.b')).toBe(ruleSeed(42, 'a.b'));
    expect(ruleSeed(42, 'a.b')).not.toBe(ruleSeed(42, 'a.c'));
    expect(ruleSeed(42, 'a.b')).not.toBe(ruleSeed(43, 'a.b'));
  });
});

describe('curl reproduction', () => {
  it('quotes method, URL, headers and body for a POSIX shell', () => {
    const line = curlOf({ method: 'POST', url: 'http://h/x?a=1', headers: { 'content-type': 'application/json' }, body: `{"a":"it's"}` });
    expect(line).toBe(`curl -sS -i -X POST 'http://h/x?a=1' -H 'content-type: application/json' --data-binary '{"a":"it'\\''s"}'`);
  });
});
