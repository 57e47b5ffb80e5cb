/** The checks of what the account stores from chat messages (src/checks/chat-stored.ts), on hand-made observations. */
import { describe, expect, it } from 'vitest';
import { contactCarries, onAnswer, previewStoredAs, quoteResolvedAs } from '../../src/checks/chat-stored.js';
import { status } from '../../src/checks/status.js';
import type { HttpResponse } from '../../src/model/http.js';

const res = (s: number): HttpResponse => ({ status: s, headers: { 'content-type': 'application/json' }, text: '', durationMs: 1 });
const ok = res(200);

describe('onAnswer', () => {
  it('judges the answer of an observation that read something back', () => {
    expect(onAnswer(status(200))({ res: ok }).verdict).toBe('passed');
    expect(onAnswer(status(200))({ res: res(400) }).verdict).toBe('failed');
  });
});

describe('quoteResolvedAs', () => {
  const quoted = { type: 'text', text: 'message 1', timestamp: 100, msec_timestamp: 100_123, sender: { id: 'ci-1', client_id: 'client-1', name: 'Ann' } };
  const judge = quoteResolvedAs(quoted);

  it('passes a quote carrying the quoted message\'s type, text, times and sender ids, whatever the name', () => {
    const f = judge({ res: ok, quote: { ...quoted, id: 'x', msgid: 'm1', sender: { ...quoted.sender, name: 'Ann B.' } } });
    expect(f.verdict).toBe('passed');
    expect(f.detail).toContain('sender.client_id');
  });

  it('fails a quote with only its ids, naming each missing field against the quoted value', () => {
    const f = judge({ res: ok, quote: { msgid: 'm1' } });
    expect(f.verdict).toBe('failed');
    expect(f.detail).toContain('type nothing (quoted: "text")');
    expect(f.detail).toContain('msec_timestamp nothing (quoted: 100123)');
  });

  it('fails another message\'s fields and no stored quote at all', () => {
    expect(judge({ res: ok, quote: { ...quoted, text: 'message 2' } }).detail).toContain('text "message 2" (quoted: "message 1")');
    expect(judge({ res: ok, quote: undefined }).verdict).toBe('failed');
  });

  it('does not ask for a sender id the quoted message lacks (an account user has no client_id)', () => {
    const manager = quoteResolvedAs({ ...quoted, sender: { id: 'user-7', name: 'Manager' } });
    expect(manager({ res: ok, quote: { ...quoted, sender: { id: 'user-7' } } }).verdict).toBe('passed');
  });
});

describe('previewStoredAs', () => {
  const LINK = 'https://cdn.example/tmp.jpg';
  const PERMA = 'https://social.example/p.jpg';

  it('wants a downloaded copy for preview_link alone, never the temporary link', () => {
    const judge = previewStoredAs({ preview_link: LINK });
    expect(judge({ res: ok, post: { preview: { source: 'downloaded', url: 'https://files.example/copy.jpg' } } }).verdict).toBe('passed');
    expect(judge({ res: ok, post: { preview: { source: 'downloaded', url: LINK } } }).verdict).toBe('failed');
    expect(judge({ res: ok, post: { preview: { source: 'link', url: LINK } } }).verdict).toBe('failed');
    expect(judge({ res: ok, post: { preview: null } }).detail).toContain('observed no preview');
    expect(judge({ res: ok, post: undefined }).detail).toContain('no stored shared_post');
  });

  it('wants the permalink kept as it is, alone or over preview_link', () => {
    for (const sent of [{ preview_permalink: PERMA }, { preview_link: LINK, preview_permalink: PERMA }]) {
      const judge = previewStoredAs(sent);
      expect(judge({ res: ok, post: { preview: { source: 'permalink', url: PERMA } } }).verdict).toBe('passed');
      expect(judge({ res: ok, post: { preview: { source: 'downloaded', url: 'https://files.example/copy.jpg' } } }).verdict).toBe('failed');
      expect(judge({ res: ok, post: { preview: { source: 'permalink', url: LINK } } }).verdict).toBe('failed');
    }
    expect(previewStoredAs({ preview_link: LINK, preview_permalink: PERMA })({ res: ok, post: { preview: null } }).detail).toContain('taking priority');
  });

  it('wants no preview when none was sent', () => {
    expect(previewStoredAs({})({ res: ok, post: { preview: null } }).verdict).toBe('passed');
    expect(previewStoredAs({})({ res: ok, post: { preview: { source: 'downloaded', url: 'x' } } }).verdict).toBe('failed');
  });
});

describe('contactCarries', () => {
  const judge = contactCarries({ phone: '+79001234567', email: 'Client@Example.com' });

  it('passes the phone and email, also with other separators or case', () => {
    expect(judge({ contact: { name: 'C', phone: '+79001234567', email: 'Client@Example.com' } }).verdict).toBe('passed');
    expect(judge({ contact: { phone: '7 (900) 123-45-67', email: 'client@example.com' } }).verdict).toBe('passed');
  });

  it('fails a contact without either, another phone, and no lead', () => {
    expect(judge({ contact: { name: 'C' } }).detail).toContain('observed phone nothing, email nothing');
    expect(judge({ contact: { phone: '+79001234568', email: 'client@example.com' } }).verdict).toBe('failed');
    expect(judge({ contact: { phone: '+79001234567' } }).verdict).toBe('failed');
    expect(judge(undefined).detail).toContain('observed none');
  });
});
