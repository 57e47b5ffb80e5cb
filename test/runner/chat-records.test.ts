import { describe, expect, it } from 'vitest';
import { holdsMessages, noBody, observedDuplicate, observedErrorBody, conversationsAre, postConversationHolds } from '../../src/checks/chat-records.js';
import type { HttpResponse } from '../../src/model/http.js';

const res = (s: number, text = '', type = 'application/json'): HttpResponse => ({ status: s, headers: { 'content-type': type }, text, durationMs: 1 });
const item = (clientId: string, text = 'x') => ({ message: { client_id: clientId, text } });

describe('noBody', () => {
  it('passes an empty body, is non_strict on any body of a 200, fails a body on a 204', () => {
    expect(noBody(res(200, '')).verdict).toBe('passed');
    expect(noBody(res(200, ' \n')).verdict).toBe('passed');
    expect(noBody(res(200, '{}')).verdict).toBe('non_strict');
    expect(noBody(res(200, 'null')).verdict).toBe('non_strict');
    expect(noBody(res(200, '{"ok":true}')).verdict).toBe('non_strict');
    expect(noBody(res(200, 'done', 'text/plain')).verdict).toBe('non_strict');
    expect(noBody(res(204, '{"ok":true}')).verdict).toBe('failed');
  });
});

describe('observedErrorBody', () => {
  it('records status, media type and sorted top-level keys, never judging', () => {
    const f = observedErrorBody('chat interface')(res(400, '{"status":0,"error_code":400}'));
    expect(f.verdict).toBe('informational');
    expect(f.detail).toBe('chat interface: 400, application/json, keys error_code, status');
    expect(observedErrorBody('account API')(res(401, '')).detail).toContain('no body');
  });
});

describe('observedDuplicate', () => {
  it('records the answers and which text the history kept', () => {
    const base = { first: 200, second: 200, msgid: 'm1', texts: ['a', 'b'] as const };
    expect(observedDuplicate({ ...base, items: [item('m1', 'a')] }).detail).toContain('1 element(s) under the msgid (the first text)');
    expect(observedDuplicate({ ...base, items: [item('m1', 'b')] }).detail).toContain('(the second text)');
    expect(observedDuplicate({ ...base, items: [item('m1', 'a'), item('m1', 'b')] }).detail).toContain('2 element(s)');
    expect(observedDuplicate({ ...base, items: [] }).verdict).toBe('informational');
  });
});

describe('postConversationHolds', () => {
  it('passes one post conversation with the count, fails a split or a wrong count', () => {
    expect(postConversationHolds('p', 2)([{ kind: 'private', message_count: 0 }, { kind: 'post', post_id: 'p', message_count: 2 }]).verdict).toBe('passed');
    expect(postConversationHolds('p', 2)([{ kind: 'post', post_id: 'p', message_count: 1 }, { kind: 'post', post_id: 'p#reply', message_count: 1 }]).verdict).toBe('failed');
    expect(postConversationHolds('p', 2)([{ kind: 'post', post_id: 'p', message_count: 1 }]).verdict).toBe('failed');
    expect(postConversationHolds('p', 2)([]).verdict).toBe('failed');
  });
});

describe('holdsMessages', () => {
  it('passes exactly n messages', () => {
    expect(holdsMessages(1)([item('a')]).verdict).toBe('passed');
    expect(holdsMessages(1)([item('a'), item('a')]).verdict).toBe('failed');
  });
});

describe('conversationsAre', () => {
  const judge = conversationsAre({ private: 1, 'post:p1': 2, 'post:p2': 1 });

  it('passes exactly the conversations expected, in any order, each with its count', () => {
    expect(judge([{ kind: 'post', post_id: 'p2', message_count: 1 }, { kind: 'private', message_count: 1 }, { kind: 'post', post_id: 'p1', message_count: 2 }]).verdict).toBe('passed');
  });

  it('fails comments merged into the private conversation, a missing post, a wrong count or none at all', () => {
    const merged = judge([{ kind: 'private', message_count: 4 }]);
    expect(merged.verdict).toBe('failed');
    expect(merged.detail).toContain('observed private=4');
    expect(judge([{ kind: 'private', message_count: 1 }, { kind: 'post', post_id: 'p1', message_count: 3 }]).verdict).toBe('failed');
    expect(judge([{ kind: 'private', message_count: 1 }, { kind: 'post', post_id: 'p1', message_count: 2 }, { kind: 'post', post_id: 'p2', message_count: 2 }]).verdict).toBe('failed');
    expect(judge([]).detail).toContain('observed none');
  });
});
