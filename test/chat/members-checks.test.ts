/**
 * The checks of review rows C1–C31 (docs/review-2026-11-26.md): what each reading passes, marks non_strict and fails.
 */
import { describe, expect, it } from 'vitest';
import { absentWhenNotGiven, avatarGiven, emptyAvatar, phoneShownAs } from '../../src/checks/chat-members.js';
import { refusalPreferred } from '../../src/checks/field-cases.js';
import { defaultOrAbsent, refusedOrTaken, unknownScopeAnswer } from '../../src/checks/chat-scope.js';
import { whenAccepted } from '../../src/checks/status.js';
import { connectAnswer, createdChat } from '../../src/checks/chat.js';
import { carriesSent, senderRefIs } from '../../src/checks/chat-history.js';
import { someHooks } from '../../src/checks/chat-effects.js';
import { previewStoredObserved, sentByDefault } from '../../src/checks/chat-stored.js';
import type { HttpResponse } from '../../src/model/http.js';
import type { HistoryItem } from '../../src/protocol/answers.js';

const res = (s: number, body?: unknown): HttpResponse => ({ status: s, headers: body === undefined ? {} : { 'content-type': 'application/json' }, text: body === undefined ? '' : JSON.stringify(body), durationMs: 1 });

describe('refusalPreferred (wrong-type, unmarked-member, shared_post.type)', () => {
  it('passes 400, is non_strict for another 4xx or a 2xx, fails a 5xx or a redirect', () => {
    expect(refusalPreferred('status 400')(res(400, {})).verdict).toBe('passed');
    expect(refusalPreferred('status 400')(res(422, {})).verdict).toBe('non_strict');
    expect(refusalPreferred('status 400')(res(200, {})).verdict).toBe('non_strict');
    expect(refusalPreferred('status 400')(res(302)).verdict).toBe('failed');
    expect(refusalPreferred('status 400')(res(500, {})).verdict).toBe('failed');
  });
});

describe('participant members (C6–C8)', () => {
  it('avatar: "" passes, null or none is non_strict, a value fails', () => {
    expect(emptyAvatar('user.avatar')(res(200, { user: { avatar: '' } })).verdict).toBe('passed');
    expect(emptyAvatar('user.avatar')(res(200, { user: { avatar: null } })).verdict).toBe('non_strict');
    expect(emptyAvatar('user.avatar')(res(200, { user: {} })).verdict).toBe('non_strict');
    expect(emptyAvatar('user.avatar')(res(200, { user: { avatar: 'https://x/a.png' } })).verdict).toBe('failed');
  });
  it('phone and email not given: absent passes, null or "" is non_strict, a value fails', () => {
    const check = absentWhenNotGiven('user.phone', 'user.email');
    expect(check(res(200, { user: {} })).verdict).toBe('passed');
    expect(check(res(200, { user: { phone: null, email: '' } })).verdict).toBe('non_strict');
    expect(check(res(200, { user: { phone: '+1' } })).verdict).toBe('failed');
  });
  it('a phone: as sent passes, the same digits otherwise spelt are non_strict, another number fails', () => {
    expect(phoneShownAs('user.phone', '+7 999 123')(res(200, { user: { phone: '+7 999 123' } })).verdict).toBe('passed');
    expect(phoneShownAs('user.phone', '+7 999 123')(res(200, { user: { phone: '7999123' } })).verdict).toBe('non_strict');
    expect(phoneShownAs('user.phone', '+7 999 123')(res(200, { user: { phone: '7999124' } })).verdict).toBe('failed');
    expect(phoneShownAs('user.phone', '+7 999 123')(res(200, { user: {} })).verdict).toBe('failed');
  });
});

describe('connect answers (C1–C4)', () => {
  it('account_id missing is non_strict, another one fails', () => {
    expect(connectAnswer('acc')(res(200, { scope_id: 's', account_id: 'acc' })).verdict).toBe('passed');
    expect(connectAnswer('acc')(res(200, { scope_id: 's' })).verdict).toBe('non_strict');
    expect(connectAnswer('acc')(res(200, { scope_id: 's', account_id: 'other' })).verdict).toBe('failed');
  });
  it('a default: the value passes, none is non_strict, another value fails', () => {
    expect(defaultOrAbsent('title', 'Name')(res(200, { title: 'Name' })).verdict).toBe('passed');
    expect(defaultOrAbsent('title', 'Name')(res(200, {})).verdict).toBe('non_strict');
    expect(defaultOrAbsent('title', 'Name')(res(200, { title: 'chan-1' })).verdict).toBe('failed');
  });
  it('whenAccepted judges a success only', () => {
    expect(whenAccepted(defaultOrAbsent('hook_api_version', 'v1'))(res(400, { error: 'x' })).verdict).toBe('passed');
    expect(whenAccepted(defaultOrAbsent('hook_api_version', 'v1'))(res(200, { hook_api_version: 'v2' })).verdict).toBe('failed');
  });
});

describe('scopes (C20, C28)', () => {
  it('a disconnected scope: any 4xx passes, a 2xx is non_strict, a 5xx fails', () => {
    expect(refusedOrTaken()(res(404, {})).verdict).toBe('passed');
    expect(refusedOrTaken()(res(400, {})).verdict).toBe('passed');
    expect(refusedOrTaken()(res(200, {})).verdict).toBe('non_strict');
    expect(refusedOrTaken()(res(500, {})).verdict).toBe('failed');
  });
  it('an unknown scope: 404 passes (and 204 for history), another 4xx is non_strict, a success fails', () => {
    expect(unknownScopeAnswer(false)(res(404, {})).verdict).toBe('passed');
    expect(unknownScopeAnswer(true)(res(204)).verdict).toBe('passed');
    expect(unknownScopeAnswer(false)(res(204)).verdict).toBe('failed');
    expect(unknownScopeAnswer(false)(res(403, {})).verdict).toBe('non_strict');
    expect(unknownScopeAnswer(false)(res(200, {})).verdict).toBe('failed');
  });
});

describe('re-hosted media (C12), hooks (C18), previews (C16)', () => {
  const sent = { type: 'picture', media: 'https://files.example/p.png', file_name: 'p.png', file_size: 10 };
  const item = (media: unknown): HistoryItem[] => [{ message: { client_id: 'm1', type: 'picture', media, file_name: 'p.png', file_size: 10 } } as unknown as HistoryItem];
  it('media: the URL sent or any non-empty copy passes; none or "" fails', () => {
    expect(carriesSent('m1', sent)(item('https://files.example/p.png')).verdict).toBe('passed');
    expect(carriesSent('m1', sent)(item('https://cdn.service/files/abc')).verdict).toBe('passed');
    expect(carriesSent('m1', sent)(item('')).verdict).toBe('failed');
    expect(carriesSent('m1', sent)(item(undefined)).verdict).toBe('failed');
  });
  it('hooks while connected: one or more pass, none fails', () => {
    expect(someHooks('while connected')(2).verdict).toBe('passed');
    expect(someHooks('while connected')(0).verdict).toBe('failed');
  });
  it('preview storage is recorded either way', () => {
    const seen = { res: res(200, {}), post: { url: 'u', preview: { source: 'downloaded', url: 'https://x/copy' } } };
    expect(previewStoredObserved({ preview_permalink: 'https://p' })(seen as never).verdict).toBe('informational');
    expect(previewStoredObserved({ preview_link: 'https://l' })(seen as never).verdict).toBe('informational');
  });
});

describe('the default status (C13)', () => {
  it('records the status before any was sent, never judging it (R2-C1: no answer of the spec shows it)', () => {
    expect(sentByDefault({ delivery_status: null }).verdict).toBe('informational');
    expect(sentByDefault({}).detail).toContain('as the wording says');
    expect(sentByDefault({ delivery_status: 'sent' }).verdict).toBe('informational');
    const coded = sentByDefault({ delivery_status: { status_code: 1 } });
    expect(coded.verdict).toBe('informational');
    expect(coded.detail).toContain('status_code 1');
  });
});

describe('ids and participants compared with what was sent (issue 20)', () => {
  it('avatarGiven: the URL sent or a copy passes, none, null or "" is non_strict (R2-C5), another type fails', () => {
    expect(avatarGiven('user.avatar')(res(200, { user: { avatar: 'https://files.example/a.png' } })).verdict).toBe('passed');
    expect(avatarGiven('user.avatar')(res(200, { user: {} })).verdict).toBe('non_strict');
    expect(avatarGiven('user.avatar')(res(200, { user: { avatar: null } })).verdict).toBe('non_strict');
    expect(avatarGiven('user.avatar')(res(200, { user: { avatar: '' } })).verdict).toBe('non_strict');
    expect(avatarGiven('user.avatar')(res(200, { user: { avatar: 3 } })).verdict).toBe('failed');
  });
  it('createdChat: an empty user.id fails', () => {
    const user = { client_id: 'c1', name: 'N' };
    expect(createdChat('c1')(res(200, { id: 'chat', user: { ...user, id: 'u1' } })).verdict).toBe('passed');
    expect(createdChat('c1')(res(200, { id: 'chat', user: { ...user, id: '' } })).verdict).toBe('failed');
  });
  it('senderRefIs: the ref_id sent as the history sender passes; another sender or a missing message fails', () => {
    const items: HistoryItem[] = [{ sender: { id: 'u7', name: 'Manager' }, message: { client_id: 'm1' } }];
    expect(senderRefIs('m1', 'u7')(items).verdict).toBe('passed');
    expect(senderRefIs('m1', 'bot-1')(items).verdict).toBe('failed');
    expect(senderRefIs('m2', 'u7')(items).verdict).toBe('failed');
  });
});
