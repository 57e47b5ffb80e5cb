/**
 * The checks under the third review's readings (reviews/verdicts-2026-12-02.md, R3-A1–A8, R3-C1–C6; docs/verdicts.md
 * and issue 39): what a correct server passes and what now fails where the spec names the media type, the member or the shape.
 */
import { describe, expect, it } from 'vitest';
import { chatErrorBody } from '../../src/checks/chat-http.js';
import { accountBody } from '../../src/checks/media.js';
import { estimatedBits } from '../../src/checks/token-format.js';
import type { HttpResponse } from '../../src/model/http.js';
import { refusalOf } from '../../specs/4.1/support.js';

const raw = (statusCode: number, text: string, type = 'application/json'): HttpResponse =>
  ({ status: statusCode, headers: { 'content-type': type }, text }) as unknown as HttpResponse;
const verdicts = (checks: readonly ((r: HttpResponse) => { verdict: string })[], r: HttpResponse) => checks.map((c) => c(r).verdict);

describe('R3-A2: every refusal of the token endpoint is application/json', () => {
  it('a refusal of a sweep that does not own the body is read for its media type', () => {
    const checks = refusalOf('oauth.token.grant-type.wrong', { field: 'grant_type', breakage: 'wrong', value: 'password' } as never, 'json');
    expect(verdicts(checks, raw(400, '<html>bad</html>', 'text/html'))).toContain('failed');
    expect(verdicts(checks, raw(400, '{"error":"invalid_request"}'))).not.toContain('failed');
  });
});

describe('R3-C4: a chat refusal\'s details may be any JSON value', () => {
  it('an array or a string with details passes, an empty one is non_strict, a body that is not JSON fails', () => {
    expect(chatErrorBody(raw(400, '["text is required"]')).verdict).toBe('passed');
    expect(chatErrorBody(raw(400, '"text is required"')).verdict).toBe('passed');
    expect(chatErrorBody(raw(400, '{"detail":"x"}')).verdict).toBe('passed');
    expect(chatErrorBody(raw(400, '[]')).verdict).toBe('non_strict');
    expect(chatErrorBody(raw(400, '""')).verdict).toBe('non_strict');
    expect(chatErrorBody(raw(400, '')).verdict).toBe('non_strict');
    expect(chatErrorBody(raw(400, '<h1>Bad</h1>', 'text/html')).verdict).toBe('failed');
  });
});

describe('issue 39 item 4: a token works only when the answer is the protocol\'s', () => {
  it('a 200 HTML page or an empty object is no account; the account\'s JSON object is', () => {
    expect(accountBody(raw(200, '<html><form></form></html>', 'text/html')).verdict).toBe('failed');
    expect(accountBody(raw(200, '{}')).verdict).toBe('failed');
    expect(accountBody(raw(200, '[1]')).verdict).toBe('failed');
    expect(accountBody(raw(200, '{"id":1,"name":"A"}', 'application/hal+json')).verdict).toBe('passed');
    expect(accountBody(raw(401, '<html></html>', 'text/html')).verdict).toBe('passed');
  });
});

describe('issue 39 item 5: estimatedBits counts hex as 16 symbols', () => {
  it('26 hex digits carry 104 bits, not 134', () => {
    expect(estimatedBits(['0123456789abcdef0123456789', 'fedcba9876543210fedcba9876'])).toBe(104);
    expect(estimatedBits(['0123456789abcdef0123456789', 'fedcba9876543210fedcba987g'])).toBeGreaterThan(104);
  });
});
