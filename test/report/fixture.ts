import type { Report, RuleResult } from '../../src/model/result.js';
import { summarize } from '../../src/model/result.js';

export const HOSTILE = '</script><script>alert(1)</script>';

export const RESULTS: RuleResult[] = [
  {
    id: 'oauth.token.grant-ok', section: '4.1', level: 'must', requires: [], status: 'passed',
    title: 'Token endpoint issues tokens for a valid code', duration_ms: 12,
    detail: 'expected 200 with access_token observed 200 with access_token',
    reproduction: "curl -X POST 'http://127.0.0.1:4010/oauth/token' -d 'code=abcd…'",
    findings: [{ check: 'status', verdict: 'passed', detail: '200' }],
  },
  {
    id: 'oauth.token.bad-secret', section: '4.1', level: 'must', requires: ['control'], status: 'failed',
    title: 'Wrong client secret is refused <b>bold</b>', duration_ms: 1500,
    detail: 'expected 401 observed 200 with "access_token" & more\nsecond line \u0000\u0007 ctrl | pipe',
    reproduction: "curl -X POST 'http://127.0.0.1:4010/oauth/token' -H 'Content-Type: application/x-www-form-urlencoded'",
    exchanges: [{
      request: { method: 'POST', url: 'http://127.0.0.1:4010/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'client_secret=sec1…' },
      response: { status: 200, headers: { 'content-type': 'text/html' }, body: HOSTILE },
      started_at: '2025-01-01T00:00:01.000Z', duration_ms: 5,
    }],
    request_count: 1,
  },
  {
    id: 'accounts.filter.limit', section: '4.2', level: 'should', requires: [], status: 'non_strict',
    title: 'Filter limit over maximum', duration_ms: 30,
    detail: 'expected 400 observed 422', reading: 'another 4xx than the stated one is acceptable',
  },
  {
    id: 'accounts.list.fields', section: '4.2', level: 'info', requires: [], status: 'informational',
    title: 'Unspecified field shown', duration_ms: 3, detail: 'observed field "x" present',
  },
  {
    id: 'chat.hook.disconnect', section: '5.3', level: 'must', requires: ['hook'], status: 'skipped',
    title: 'Disconnect hook is sent', duration_ms: 0, detail: 'target lacks capability: hook',
  },
  {
    id: 'chat.signature.tampered-body', section: '5.2', level: 'must', requires: [], status: 'errored',
    title: 'Tampered body is refused', duration_ms: 10000, detail: 'timeout after 10000 ms',
    exchanges: [{
      request: { method: 'POST', url: 'http://127.0.0.1:4010/chat', headers: {} , body: '{"a":1}' },
      error: 'ETIMEDOUT', started_at: '2025-01-01T00:00:02.000Z', duration_ms: 10000,
    }],
    property: { seed: 42, runs: 100, path: '3:1', shrinks: 2, counterexample: [{ body: '<script>x</script>' }], replay: 'conformance run --only chat.signature.tampered-body --seed 42' },
  },
  {
    id: 'chat.signature.ok', section: '10.1', level: 'should', requires: [], status: 'failed',
    title: 'A should rule that failed', duration_ms: 4, detail: 'expected no 5xx observed 500',
  },
];

export function makeReport(results: RuleResult[] = RESULTS, extra: Partial<Report> = {}): Report {
  return {
    suite: { name: 'conformance-kit', version: '0.1.0' },
    target: { kind: 'emulator', base_url: 'http://127.0.0.1:4010', chat_url: 'http://127.0.0.1:4010/chat' },
    seed: 42,
    started_at: '2025-01-01T00:00:00.000Z',
    finished_at: '2025-01-01T00:00:20.000Z',
    summary: summarize(results),
    results,
    options: { profile: 'quick', strict: false },
    request_count: 2,
    ...extra,
  };
}

/** A minimal XML well-formedness check: balanced tags, quoted attributes, no raw `<`/`&`, only XML 1.0 characters. */
export function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  // eslint-disable-next-line no-control-regex
  if (/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u.test(xml)) problems.push('invalid XML 1.0 character');
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/gy;
  let m: RegExpExecArray | null;
  let roots = 0;
  let pos = 0;
  while ((m = token.exec(body)) !== null) {
    pos = token.lastIndex;
    if (m[6]) { problems.push(`stray < at ${m.index}: ${body.slice(m.index, m.index + 40)}`); break; }
    if (m[5] !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i.test(m[5])) problems.push(`raw & in text at ${m.index}`);
      if (stack.length === 0 && m[5].trim()) problems.push('text outside root');
      continue;
    }
    const [, close, name, attrs, selfClose] = m;
    if (attrs && /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i.test(attrs)) problems.push(`raw & in attribute of ${name}`);
    if (close) {
      if (stack.pop() !== name) problems.push(`unbalanced </${name}>`);
    } else if (!selfClose) {
      if (stack.length === 0) roots++;
      stack.push(name as string);
    } else if (stack.length === 0) roots++;
  }
  if (pos < body.length) problems.push(`unparsed at ${pos}: ${body.slice(pos, pos + 40)}`);
  if (stack.length) problems.push(`unclosed ${stack.join(',')}`);
  if (roots !== 1) problems.push(`${roots} roots`);
  return problems;
}
