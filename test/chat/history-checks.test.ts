/**
 * The checks of what a chat history shows beyond one field (src/checks/chat-history.ts), the model run's judge
 * (src/checks/chat-model.ts) and the Date skew record (src/checks/observe.ts), on hand-made observations.
 */
import { describe, expect, it } from 'vitest';
import {
  elementOfType, historyAnswerObserved, historyOrderObserved, kindsTold, mediaGroupObserved, messageFields, participantShown,
} from '../../src/checks/chat-history.js';
import { equals } from '../../src/checks/fields.js';
import { modelHeld } from '../../src/checks/chat-model.js';
import { skewObserved } from '../../src/checks/observe.js';
import type { HttpResponse } from '../../src/model/http.js';
import type { HistoryItem } from '../../src/protocol/answers.js';

const res = (status: number, body?: unknown): HttpResponse =>
  ({ status, headers: { 'content-type': 'application/json' }, text: body === undefined ? '' : JSON.stringify(body), durationMs: 1 });

describe('messageFields', () => {
  const judge = messageFields('m1', 'file kept', { text: equals('new caption'), file_name: equals('picture.bin') });

  it('passes the message stored under the id with every field as expected', () => {
    expect(judge([{ message: { client_id: 'm1', text: 'new caption', file_name: 'picture.bin' } }]).verdict).toBe('passed');
  });

  it('fails a field cleared by the edit, naming it, and a message missing from the history', () => {
    const cleared = judge([{ message: { client_id: 'm1', text: 'new caption' } }]);
    expect(cleared.verdict).toBe('failed');
    expect(cleared.detail).toContain('file_name nothing');
    expect(judge([{ message: { client_id: 'm2', text: 'new caption', file_name: 'picture.bin' } }]).detail).toContain('not in the history');
  });
});

describe('participantShown', () => {
  const client = { id: 'c1', name: 'Client', avatar: 'https://files.example/a.png', profile: { phone: '+1 000', email: 'c@example.com' } };
  const manager = { id: 'manager-7', ref_id: '7', name: 'Manager' };
  const item = (sender: Record<string, unknown>, receiver?: Record<string, unknown>): HistoryItem[] =>
    [{ sender: { id: 's', ...sender }, ...(receiver && { receiver: { id: 'r', ...receiver } }), message: { client_id: 'm1' } }];

  it('passes the members as given (an avatar re-hosted), and nothing where nothing was given (omitted, or an avatar "")', () => {
    expect(participantShown('m1', 'sender', client)(item({ avatar: 'https://copy/1', phone: '+1 000', email: 'c@example.com' })).verdict).toBe('passed');
    expect(participantShown('m1', 'sender', manager)(item({ avatar: '' })).verdict).toBe('passed');
    expect(participantShown('m1', 'receiver', client)(item({}, { avatar: client.avatar, phone: '+1 000', email: 'c@example.com' })).verdict).toBe('passed');
  });

  it('gives null or "" for nothing given, an avatar given missing and a phone otherwise spelt non_strict', () => {
    expect(participantShown('m1', 'sender', manager, ['phone', 'email'])(item({ phone: null, email: '' })).verdict).toBe('non_strict');
    expect(participantShown('m1', 'sender', client)(item({ phone: '+1 000', email: 'c@example.com' })).verdict).toBe('non_strict');
    expect(participantShown('m1', 'sender', client)(item({ avatar: client.avatar, phone: '1000', email: 'c@example.com' })).verdict).toBe('non_strict');
  });

  it('fails a phone or an email given and missing (R2-C16: only empty values may be omitted)', () => {
    expect(participantShown('m1', 'sender', client)(item({ avatar: client.avatar, email: 'c@example.com' })).verdict).toBe('failed');
    expect(participantShown('m1', 'sender', client)(item({ avatar: client.avatar, phone: '+1 000', email: null })).verdict).toBe('failed');
  });

  it('fails another value, a value where nothing was given, an avatar "" where one was given, and a message or role missing', () => {
    const other = participantShown('m1', 'sender', client)(item({ avatar: client.avatar, phone: '+1 001', email: 'c@example.com' }));
    expect(other.verdict).toBe('failed');
    expect(other.detail).toContain('phone "+1 001"');
    expect(participantShown('m1', 'sender', manager, ['phone', 'email'])(item({ phone: '+1 000' })).verdict).toBe('failed');
    expect(participantShown('m1', 'sender', client)(item({ avatar: '', phone: '+1 000', email: 'c@example.com' })).verdict).toBe('failed');
    expect(participantShown('m2', 'sender', client)(item({})).detail).toContain('not in the history');
    expect(participantShown('m1', 'receiver', client)(item({})).detail).toContain('no receiver');
  });
});

describe('elementOfType', () => {
  const element = (message: Record<string, unknown>): HistoryItem => ({ timestamp: 1, msec_timestamp: 1000, sender: { id: 's' }, message: { id: 'x', client_id: 'm1', ...message } });

  it('passes an element with the history fields and those of its type, extra fields allowed', () => {
    expect(elementOfType('m1', 'picture')([element({ type: 'picture', media: 'u', file_name: 'f', file_size: 3, extra: true })]).verdict).toBe('passed');
    expect(elementOfType('m1', 'location')([element({ type: 'location', location: { lon: 1, lat: 2 } })]).verdict).toBe('passed');
  });

  it('fails a file field dropped, a field of another type, another type or client_id, and a missing element', () => {
    expect(elementOfType('m1', 'picture')([element({ type: 'picture', media: 'u', file_name: 'f' })]).detail).toContain('file_size');
    expect(elementOfType('m1', 'picture')([element({ type: 'picture', media: 'u', file_name: 'f', file_size: '3' })]).verdict).toBe('failed');
    expect(elementOfType('m1', 'contact')([element({ type: 'text', contact: { name: 'a', phone: 'b' } })]).verdict).toBe('failed');
    expect(elementOfType('m1', 'text')([{ ...element({ type: 'text', text: 'hi' }), timestamp: undefined }]).verdict).toBe('failed');
    expect(elementOfType('m2', 'text')([element({ type: 'text', text: 'hi' })]).detail).toBe('missing from the history');
  });
});

describe('kindsTold', () => {
  const client = { id: 'c1', client_id: 'c1', name: 'Client' };
  const items = (over: { manager?: Partial<HistoryItem>; incoming?: Partial<HistoryItem> } = {}): HistoryItem[] => [
    { sender: client, message: { client_id: 'in' }, ...over.incoming },
    { sender: { id: 'user-7', name: 'Manager' }, receiver: client, message: { client_id: 'mgr' }, ...over.manager },
    { sender: { id: 'bot-1', name: 'Bot' }, receiver: client, message: { client_id: 'bot' } },
  ];
  const judge = kindsTold({ clientId: 'c1', incoming: 'in', manager: 'mgr', bot: 'bot' });

  it('passes client_id on the client only and the client as receiver of outgoing messages', () => {
    expect(judge(items()).verdict).toBe('passed');
  });

  it('fails a client_id on an account user, a receiver on an incoming message, a receiver other than the client, a missing message', () => {
    expect(judge(items({ manager: { sender: { id: 'user-7', client_id: 'user-7', name: 'Manager' } } })).detail).toContain('only for external participants');
    expect(judge(items({ incoming: { receiver: { id: 'x' } } })).detail).toContain('has a receiver');
    expect(judge(items({ manager: { receiver: { id: 'user-7' } } })).detail).toContain('receiver.client_id');
    expect(judge(items().slice(0, 2)).detail).toContain('expected the 3 messages');
  });

  it('makes an account user\'s client_id of null or "" non_strict (absent spelt otherwise)', () => {
    const emptied = judge(items({ manager: { sender: { id: 'user-7', client_id: '', name: 'Manager' } } }));
    expect(emptied.verdict).toBe('non_strict');
    expect(emptied.detail).toContain('absent is stated');
  });
});

describe('the records of history rules (info)', () => {
  it('historyAnswerObserved records the status, and the messages of a 200', () => {
    const f = historyAnswerObserved('chat id in the path')(res(200, { messages: [{}, {}] }));
    expect(f.verdict).toBe('informational');
    expect(f.detail).toBe('answered 200 with 2 message(s)');
    expect(historyAnswerObserved('chat id in the path')(res(404)).detail).toBe('answered 404');
  });

  it('mediaGroupObserved tells a media_group_id and a thumbnail present from absent', () => {
    expect(mediaGroupObserved('m1')([{ message: { client_id: 'm1', media_group_id: 'g1', thumbnail: 't' } }]).detail).toBe('present (g1); thumbnail present');
    expect(mediaGroupObserved('m1')([{ message: { client_id: 'm1' } }]).detail).toBe('absent; thumbnail absent');
  });

  it('historyOrderObserved tells message-time order from arrival order, each way', () => {
    const sent = [{ msgid: 'a', at: 2000 }, { msgid: 'b', at: 0 }, { msgid: 'c', at: 1000 }];
    const order = (...ids: string[]) => historyOrderObserved(sent)(ids.map((id) => ({ message: { client_id: id } }))).detail;
    expect(order('b', 'c', 'a')).toBe('by message time, oldest first');
    expect(order('a', 'c', 'b')).toBe('by message time, newest first');
    expect(order('a', 'b', 'c')).toBe('by arrival, oldest first');
    expect(order('c', 'b', 'a')).toBe('by arrival, newest first');
    expect(order('b', 'a', 'c')).toBe('another order');
  });

  it('skewObserved records the window measured each way', () => {
    const f = skewObserved({ past: 'accepted up to about 895 s', future: 'accepted even a day off' });
    expect(f.verdict).toBe('informational');
    expect(f.detail).toBe('Date in the past: accepted up to about 895 s; in the future: accepted even a day off');
  });
});

describe('modelHeld', () => {
  it('passes a run that matched the model, makes departures alone non_strict and fails a mismatch', () => {
    expect(modelHeld({ departures: [] }).verdict).toBe('passed');
    const departed = modelHeld({ departures: ['final history of c1: 200 with an empty messages array, not 204'] });
    expect(departed.verdict).toBe('non_strict');
    expect(departed.detail).toContain('not 204');
    const mismatch = modelHeld({ mismatch: 'final history of c0: 1 lost', departures: ['ignored'] });
    expect(mismatch.verdict).toBe('failed');
    expect(mismatch.detail).toBe('final history of c0: 1 lost');
  });
});
