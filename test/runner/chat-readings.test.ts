/**
 * The checks of chat rows C32–C68 of the review of 2026-11-26 (docs/verdicts.md): each gives the verdict the statement's
 * reading gives (docs/verdicts.md, "How a statement's wording becomes a verdict").
 */
import { describe, expect, it } from 'vitest';
import { caseReading, type FieldCase, sweepCases } from '../../generators/chat-requests.js';
import { editAnswer, newMessageAnswer } from '../../src/checks/chat.js';
import { noBody } from '../../src/checks/chat-records.js';
import { firstNotifications } from '../../src/checks/chat-effects.js';
import { emptyHistory, overLimit, pageSize, refusedOrNoMessages, sentTimeIs } from '../../src/checks/chat-history.js';
import { keptAsNotes, recorded, refusalAsRead, refusalChecks, refusalPreferred } from '../../src/checks/field-cases.js';
import type { HttpResponse } from '../../src/model/http.js';
import { fail, pass } from '../../src/model/outcome.js';

const res = (s: number, body?: unknown, type = 'application/json'): HttpResponse =>
  ({ status: s, headers: { 'content-type': type }, text: body === undefined ? '' : JSON.stringify(body), durationMs: 1 });
const messages = (n: number) => ({ messages: Array.from({ length: n }, (_, i) => ({ message: { client_id: `m${i}` } })) });

describe('refusalAsRead (C34, C38, C39, C56–C58, C60, C67)', () => {
  it('passes 400, makes another 4xx non_strict and fails a 5xx under every reading', () => {
    for (const r of ['required-member', 'unmarked-member', 'wrong-type', 'enumeration'] as const) {
      expect(refusalAsRead(r)(res(400)).verdict).toBe('passed');
      expect(refusalAsRead(r)(res(422)).verdict).toBe('non_strict');
      expect(refusalAsRead(r)(res(500)).verdict).toBe('failed');
    }
  });
  it('reads an acceptance by the reading: required and enumeration fail, unmarked and wrong-type are non_strict', () => {
    expect(refusalAsRead('required-member')(res(200)).verdict).toBe('failed');
    expect(refusalAsRead('enumeration')(res(204)).verdict).toBe('failed');
    expect(refusalAsRead('unmarked-member')(res(200)).verdict).toBe('non_strict');
    expect(refusalAsRead('wrong-type')(res(200)).verdict).toBe('non_strict');
  });
  it('judges the Content-Type of a refusal only', () => {
    const [, type] = refusalChecks('wrong-type');
    expect(type!(res(400, {}, 'text/plain')).verdict).toBe('failed');
    expect(type!(res(204, undefined, '')).verdict).toBe('passed');
  });
  it('names the reading of each field case', () => {
    const c = (over: Partial<FieldCase>): FieldCase => ({ path: ['x'], type: 'string', breakage: 'missing', ...over } as FieldCase);
    expect(caseReading(c({}))).toBe('required-member');
    expect(caseReading(c({ unmarked: true }))).toBe('unmarked-member');
    expect(caseReading(c({ breakage: 'wrong-type', wrongType: 'a number', value: 7 } as Partial<FieldCase>))).toBe('wrong-type');
    expect(caseReading(c({ type: 'enum', breakage: 'wrong-type', wrongType: 'a string', value: 'gif' } as Partial<FieldCase>))).toBe('enumeration');
    // R2-C12: any value but null outside an enumeration is outside it, a number as much as a string.
    expect(caseReading(c({ type: 'enum', breakage: 'wrong-type', wrongType: 'a number', value: 7 } as Partial<FieldCase>))).toBe('enumeration');
    expect(caseReading(c({ type: 'enum', breakage: 'wrong-type', wrongType: 'null', value: null } as Partial<FieldCase>))).toBe('wrong-type');
  });

  it('sends each enumerated member "" and a listed value in upper case (R2-C12)', () => {
    const cases = sweepCases([{ path: ['hook_api_version'], type: 'enum', values: ['v1', 'v2'] }]);
    const values = cases.filter((x) => x.breakage === 'wrong-type').map((x) => (x as { value: unknown }).value);
    expect(values).toContain('');
    expect(values).toContain('V1');
  });
});

describe('refusalPreferred (C47–C50, C64)', () => {
  it('passes the stated code, makes an acceptance or another 4xx non_strict, fails a 5xx', () => {
    expect(refusalPreferred('r')(res(400)).verdict).toBe('passed');
    expect(refusalPreferred('r')(res(200)).verdict).toBe('non_strict');
    expect(refusalPreferred('r')(res(404)).verdict).toBe('non_strict');
    expect(refusalPreferred('r', 403)(res(502)).verdict).toBe('failed');
  });
});

describe('recorded (C44, C45, C61)', () => {
  it('turns every finding into an observation, keeping its detail', () => {
    const [a, b] = recorded([() => fail('x', 'expected 4xx, observed 200'), () => pass('y', 'ok')]);
    expect(a!(undefined)).toEqual({ check: 'x', verdict: 'informational', detail: 'expected 4xx, observed 200' });
    expect(b!(undefined).verdict).toBe('informational');
  });
});

describe('keptAsNotes (C46)', () => {
  it('keeps a side observation in the detail of a passing finding', () => {
    const [a] = keptAsNotes([() => fail('linked', 'the reply started a chat of its own')]);
    expect(a!(undefined)).toEqual({ check: 'linked', verdict: 'passed', detail: 'recorded: the reply started a chat of its own' });
  });
});

describe('newMessageAnswer (C35–C37) and editAnswer (C42)', () => {
  const expectIn = { msgid: 'm1', conversationId: 'c1', outgoing: false };
  const full = { conversation_id: 'c1', sender_id: 's', receiver_id: null, msgid: 'id1', ref_id: 'm1' };
  it('passes the stated members; null receiver_id for an incoming message', () => {
    expect(newMessageAnswer(expectIn)(res(200, { new_message: full })).verdict).toBe('passed');
  });
  it('makes a missing member non_strict, but msgid, which fails (R2-C7)', () => {
    for (const k of ['conversation_id', 'sender_id', 'receiver_id', 'ref_id']) {
      const { [k as keyof typeof full]: _, ...rest } = full;
      expect(newMessageAnswer(expectIn)(res(200, { new_message: rest })).verdict, k).toBe('non_strict');
    }
    const { msgid: _, ...withoutMsgid } = full;
    expect(newMessageAnswer(expectIn)(res(200, { new_message: withoutMsgid })).verdict).toBe('failed');
  });
  it('reads receiver_id "" on an incoming message non_strict (R2-C8)', () => {
    expect(newMessageAnswer(expectIn)(res(200, { new_message: { ...full, receiver_id: '' } })).verdict).toBe('non_strict');
  });
  it('passes any id of the sender, and fails the chat\'s id or the receiver\'s as sender_id (R2-C9)', () => {
    const known = { ...expectIn, chatId: 'chat1', senderIds: ['client1'] };
    expect(newMessageAnswer(known)(res(200, { new_message: { ...full, sender_id: 'another-id-of-client1' } })).verdict).toBe('passed');
    expect(newMessageAnswer(known)(res(200, { new_message: { ...full, sender_id: 'chat1' } })).verdict).toBe('failed');
    const out = { ...expectIn, outgoing: true, senderIds: ['manager1'], receiverIds: ['client1'] };
    expect(newMessageAnswer(out)(res(200, { new_message: { ...full, sender_id: 'client1', receiver_id: 'client1' } })).verdict).toBe('failed');
  });
  it('fails a receiver_id value on an incoming message, and a null one on an outgoing message (C36)', () => {
    expect(newMessageAnswer(expectIn)(res(200, { new_message: { ...full, receiver_id: 'r' } })).verdict).toBe('failed');
    expect(newMessageAnswer({ ...expectIn, outgoing: true })(res(200, { new_message: full })).verdict).toBe('failed');
    expect(newMessageAnswer({ ...expectIn, outgoing: true })(res(200, { new_message: { ...full, receiver_id: 'r' } })).verdict).toBe('passed');
  });
  it('fails another ref_id or a member of another type', () => {
    expect(newMessageAnswer(expectIn)(res(200, { new_message: { ...full, ref_id: 'other' } })).verdict).toBe('failed');
    expect(newMessageAnswer(expectIn)(res(200, { new_message: { ...full, sender_id: 7 } })).verdict).toBe('failed');
  });
  it('compares conversation_id with the chat and sender_id, receiver_id with the participants when the rule knows them', () => {
    const known = { ...expectIn, chatId: 'chat-1', senderIds: ['client-1', 'person-1'] };
    expect(newMessageAnswer(known)(res(200, { new_message: { ...full, sender_id: 'person-1' } })).verdict).toBe('passed');
    expect(newMessageAnswer(known)(res(200, { new_message: { ...full, conversation_id: 'chat-1', sender_id: 'client-1' } })).verdict).toBe('passed');
    expect(newMessageAnswer(known)(res(200, { new_message: { ...full, conversation_id: 'c2', sender_id: 'person-1' } })).verdict).toBe('failed');
    expect(newMessageAnswer(known)(res(200, { new_message: { ...full, sender_id: 'chat-1' } })).verdict).toBe('failed');
    const out = { ...expectIn, outgoing: true, senderIds: ['manager-1'], receiverIds: ['client-1'] };
    expect(newMessageAnswer(out)(res(200, { new_message: { ...full, sender_id: 'manager-1', receiver_id: 'client-1' } })).verdict).toBe('passed');
    expect(newMessageAnswer(out)(res(200, { new_message: { ...full, sender_id: 'client-1', receiver_id: 'manager-1' } })).verdict).toBe('failed');
    expect(newMessageAnswer(expectIn)(res(200, { new_message: { ...full, conversation_id: 'anything' } })).verdict).toBe('passed');
  });
  it('passes an edit answered without new_message and judges one with it', () => {
    expect(editAnswer(expectIn)(res(200)).verdict).toBe('passed');
    expect(editAnswer(expectIn)(res(200, {})).verdict).toBe('passed');
    expect(editAnswer(expectIn)(res(200, { new_message: { ...full, ref_id: 'x' } })).verdict).toBe('failed');
  });
});

describe('noBody on a delivery status or reaction (C62)', () => {
  it('passes no body and makes any body on a 200 non_strict: the body of a bodiless answer is a side detail', () => {
    expect(noBody(res(200)).verdict).toBe('passed');
    expect(noBody(res(200, {})).verdict).toBe('non_strict');
    expect(noBody(res(200, null)).verdict).toBe('non_strict');
    expect(noBody({ ...res(200), text: 'ok' }).verdict).toBe('non_strict');
  });
});

describe('history (C41, C51–C55)', () => {
  it('emptyHistory: 204 passes, 200 [] is non_strict, 200 with messages fails; a 404 fails either way (R2-C14)', () => {
    expect(emptyHistory('no chat')(res(204)).verdict).toBe('passed');
    expect(emptyHistory('no chat')(res(200, messages(0))).verdict).toBe('non_strict');
    expect(emptyHistory('no chat')(res(200, messages(2))).verdict).toBe('failed');
    expect(emptyHistory('no chat')(res(404, {})).verdict).toBe('failed');
    expect(emptyHistory('no messages')(res(404, {})).verdict).toBe('failed');
  });
  it('pageSize: more than the maximum fails, with or without limit; fewer than asked (but some) is non_strict', () => {
    expect(pageSize('no limit', { max: 50, exist: 52 })(res(200, messages(0))).verdict).toBe('failed');
    expect(pageSize('no limit', { max: 50, exist: 60 })(res(200, messages(60))).verdict).toBe('failed');
    expect(pageSize('no limit', { max: 50, exist: 60 })(res(200, messages(20))).verdict).toBe('passed');
    expect(pageSize('limit 50', { max: 50, asked: 50, exist: 52 })(res(200, messages(30))).verdict).toBe('non_strict');
    expect(pageSize('limit 50', { max: 50, asked: 50, exist: 52 })(res(200, messages(50))).verdict).toBe('passed');
  });
  it('overLimit: 400 or a capped 200 pass, another 4xx is non_strict, more than 50 fails', () => {
    expect(overLimit(50)(res(400, {})).verdict).toBe('passed');
    expect(overLimit(50)(res(422, {})).verdict).toBe('non_strict');
    expect(overLimit(50)(res(200, messages(50))).verdict).toBe('passed');
    expect(overLimit(50)(res(200, messages(51))).verdict).toBe('failed');
  });
  it('refusedOrNoMessages: limit=0 answered with messages or another 4xx is non_strict', () => {
    expect(refusedOrNoMessages(res(200, messages(0))).verdict).toBe('passed');
    expect(refusedOrNoMessages(res(200, messages(3))).verdict).toBe('non_strict');
    expect(refusedOrNoMessages(res(422, {})).verdict).toBe('non_strict');
    expect(refusedOrNoMessages(res(500, {})).verdict).toBe('failed');
  });
  it('sentTimeIs: the receive time instead of the send time is non_strict; another unit fails', () => {
    const sent = { timestamp: 1_700_000_000, msec_timestamp: 1_700_000_000_123 };
    const received = 1_700_003_600_456;
    const item = (timestamp: number, msec: number) => [{ timestamp, msec_timestamp: msec, message: { client_id: 'm' } }];
    expect(sentTimeIs('m', sent, received)(item(sent.timestamp, sent.msec_timestamp)).verdict).toBe('passed');
    expect(sentTimeIs('m', sent, received)(item(1_700_003_600, 1_700_003_600_500)).verdict).toBe('non_strict');
    expect(sentTimeIs('m', sent, received)(item(sent.msec_timestamp, sent.msec_timestamp)).verdict).toBe('failed');
  });
});

describe('firstNotifications (C40)', () => {
  it('passes one, makes two non_strict, fails none', () => {
    expect(firstNotifications({ leads: 1, notifications: 1 }).verdict).toBe('passed');
    expect(firstNotifications({ leads: 1, notifications: 2 }).verdict).toBe('non_strict');
    expect(firstNotifications({ leads: 1, notifications: 0 }).verdict).toBe('failed');
  });
});
