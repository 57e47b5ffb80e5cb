/**
 * Two answers compared: each class of difference found where it is and nowhere else, values compared only for the
 * same input and never for the members named as varying by nature; addresses, settings, run ids and secrets of the
 * two servers written alike.
 */
import { describe, expect, it } from 'vitest';
import { compareAnswers, inputOf, namedNoise } from '../../src/compare/answers.js';
import { endpointOf, normalizerFor } from '../../src/compare/normalize.js';
import { Masker } from '../../src/secrets/mask.js';
import { exchange, target } from './fixture.js';

const A = 'http://127.0.0.1:4010';
const B = 'http://127.0.0.1:5020';
const sides = { a: normalizerFor(target(A), new Masker()), b: normalizerFor(target(B), new Masker()) };
const places = (a: ReturnType<typeof exchange>, b: ReturnType<typeof exchange>, same = true) =>
  compareAnswers(a, b, sides, same).differences.map((d) => `${d.class} ${d.place}`);

describe('compareAnswers', () => {
  it('finds nothing between the same answers of two servers at two addresses', () => {
    const a = exchange('GET', `${A}/api/v4/account`, 200, { id: 1, name: 'Acme', _links: { self: { href: `${A}/api/v4/account` } } });
    const b = exchange('GET', `${B}/api/v4/account`, 200, { id: 2, name: 'Acme', _links: { self: { href: `${B}/api/v4/account` } } });
    expect(places(a, b)).toEqual([]);
  });

  it('tells a status code of the same class from one of another class', () => {
    const diffs = (x: number, y: number) => compareAnswers(exchange('POST', A, x, undefined), exchange('POST', B, y, undefined), sides, true).differences.map((d) => d.what);
    expect(diffs(200, 204)).toEqual(['200 → 204 (same class)']);
    expect(diffs(200, 400)).toEqual(['200 → 400 (another class)']);
  });

  it('compares the headers the spec names and no other', () => {
    const a = exchange('GET', A, 401, { error: 'x' }, { headers: { 'www-authenticate': 'Bearer error="invalid_token"', date: 'Mon', 'x-request-id': '1' } });
    const b = exchange('GET', B, 401, { error: 'x' }, { headers: { 'www-authenticate': 'Bearer realm="api", error="invalid_token"', date: 'Tue', 'x-request-id': '2', 'content-type': 'application/json' } });
    expect(places(a, b)).toEqual(['header header content-type', 'header header www-authenticate']);
  });

  it('leaves the code and state out of a Location, and compares the rest', () => {
    const a = exchange('GET', A, 302, undefined, { headers: { location: 'https://app.example/cb?code=abc&state=s1&platform=1' } });
    const same = exchange('GET', B, 302, undefined, { headers: { location: 'https://app.example/cb?code=xyz&state=s2&platform=1' } });
    const other = exchange('GET', B, 302, undefined, { headers: { location: 'https://app.example/cb?code=xyz&state=s2&platform=2' } });
    expect(places(a, same)).toEqual([]);
    expect(places(a, other)).toEqual(['header header location']);
  });

  it('compares bodies by structure: members, types, lengths, order', () => {
    const a = exchange('GET', A, 200, { a: 1, b: 'x', list: [1, 2, 3], rows: [{ k: 1 }, { k: 2 }], obj: { p: 1, q: 2 } });
    expect(places(a, exchange('GET', B, 200, { a: 1, list: [1, 2, 3], rows: [{ k: 1 }, { k: 2 }], obj: { p: 1, q: 2 }, c: true }))).toEqual(['shape body $.b', 'shape body $.c']);
    expect(places(a, exchange('GET', B, 200, { a: '1', b: 'x', list: [1, 2], rows: [{ k: 2 }, { k: 1 }], obj: { q: 2, p: 1 } })))
      .toEqual(['shape body $.a', 'length body $.list', 'order body $.rows', 'order body $.obj']);
    expect(places(a, exchange('GET', B, 200, 'plain text'))).toEqual(['header header content-type', 'shape body']);
  });

  it('compares values only where both were sent the same input', () => {
    const a = exchange('GET', A, 200, { title: 'one' });
    const b = exchange('GET', B, 200, { title: 'two' });
    expect(places(a, b, true)).toEqual(['value body $.title']);
    expect(places(a, b, false)).toEqual([]);
  });

  it('never compares ids, tokens and timestamps by value, and counts them', () => {
    const a = exchange('POST', A, 200, { id: 'c-1', scope_id: 's1', access_token: 't1', created_at: 1, msec_timestamp: 5, token_type: 'Bearer' });
    const b = exchange('POST', B, 200, { id: 'c-2', scope_id: 's2', access_token: 't2', created_at: 2, msec_timestamp: 6, token_type: 'bearer' });
    const r = compareAnswers(a, b, sides, true);
    expect(r.differences.map((d) => d.place)).toEqual(['body $.token_type']);
    expect(Object.fromEntries(r.named)).toEqual({ ids: 2, 'tokens, codes and secrets': 1, timestamps: 2 });
    expect(['id', 'conversation_id', 'msgid', 'refresh_token', 'code', 'timestamp', 'server_time'].every((m) => namedNoise(m))).toBe(true);
    expect(['title', 'token_type', 'expires_in', 'status'].some((m) => namedNoise(m))).toBe(false);
  });

  it('finds an answer seconds and times slower, not one a few milliseconds slower', () => {
    const fast = exchange('GET', A, 200, {}, { ms: 20 });
    expect(places(fast, exchange('GET', B, 200, {}, { ms: 900 }))).toEqual([]);
    expect(places(fast, exchange('GET', B, 200, {}, { ms: 12_000 }))).toEqual(['timing time']);
  });

  it('tells an answer from none', () => {
    const none = { request: { method: 'GET', url: B }, error: 'reset', durationMs: 1 };
    expect(places(exchange('GET', A, 200, {}), none)).toEqual(['status status']);
  });
});

describe('normalizing two servers alike', () => {
  const masker = new Masker();
  masker.add('eyJhbGciOiJIUzI1NiJ9.secret-token');
  const normalize = normalizerFor(target(A, { CHANNEL_ID: 'acc062bc-9fff', BOT_ID: '7' }), masker);

  it('writes the address, the settings, the run id and secrets as placeholders', () => {
    expect(normalize(`${A}/v2/origin/custom/acc062bc-9fff/connect?title=Channel run-1-mifx2k9a&t=eyJhbGciOiJIUzI1NiJ9.secret-token`))
      .toBe('{base_url}/v2/origin/custom/{CHANNEL_ID}/connect?title=Channel {run}&t={secret}');
  });

  it('names endpoints with their ids as {id}', () => {
    expect(endpointOf('GET', `${A}/v2/origin/custom/acc062bc-9fff_158d6779/chats/abc123def456/history?limit=5`, normalize))
      .toBe('GET {base_url}/v2/origin/custom/{CHANNEL_ID}_{id}/chats/{id}/history');
    expect(endpointOf('POST', `${A}/v2/origin/custom/acc062bc-9fff_no-account-run-1-mifx2k9a-9a754a7b/typing`, normalize)).toBe('POST {base_url}/v2/origin/custom/{CHANNEL_ID}_{id}/typing');
    expect(endpointOf('GET', `${A}/api/v4/leads/42`, normalize)).toBe('GET {base_url}/api/v4/leads/{id}');
  });

  it('reads inputs as the same when they differ only in ids and named values', () => {
    const b = normalizerFor(target(B), new Masker());
    const x = exchange('POST', `${A}/chats/77777777/x?limit=5&state=a`, 200, {}, { request: { conversation_id: 'c-1', text: 'hi' } });
    const y = exchange('POST', `${B}/chats/88888888/x?limit=5&state=b`, 200, {}, { request: { conversation_id: 'c-2', text: 'hi' } });
    const z = exchange('POST', `${B}/chats/88888888/x?limit=6&state=b`, 200, {}, { request: { conversation_id: 'c-2', text: 'hi' } });
    expect(inputOf(x, normalize)).toBe(inputOf(y, b));
    expect(inputOf(x, normalize)).not.toBe(inputOf(z, b));
  });
});

describe('deeply nested answers', () => {
  it('are compared as text below the depth the comparison follows, without exhausting the stack', () => {
    const text = (leaf: number) => `${'{"a":['.repeat(3000)}${leaf}${']}'.repeat(3000)}`;
    const x = { request: { method: 'POST', url: A }, response: { status: 200, headers: {}, text: text(1) }, durationMs: 1 };
    const y = { request: { method: 'POST', url: B }, response: { status: 200, headers: {}, text: text(2) }, durationMs: 1 };
    expect(compareAnswers(x, { ...x, request: { method: 'POST', url: B } }, sides, true).differences).toEqual([]);
    expect(compareAnswers(x, y, sides, true).differences.map((d) => d.class)).toEqual(['value']);
    expect(inputOf({ ...x, request: { method: 'POST', url: A, body: text(1) } }, sides.a)).toContain('{base_url}');
  });
});
