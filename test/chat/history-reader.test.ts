/**
 * How the kit reads a chat history (src/steps/chat.ts `readPages`, `allHistory`; src/steps/chat-written.ts), against
 * scripted answers: a server that ignores `offset` ends the reading at the first page that repeats one already read,
 * and a read after an edit waits for the edit's text, not for a count of messages (§4.3 "accepted for processing",
 * the emulator's `chat-history-lags`; issue 39 item 5).
 */
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../src/model/http.js';
import type { RuleContext } from '../../src/model/context.js';
import type { HistoryItem } from '../../src/protocol/answers.js';
import type { MessagePayload } from '../../src/protocol/chat.js';
import { poll } from '../../src/runner/effects.js';
import { ChatSession } from '../../src/steps/chat.js';
import { WrittenMessages } from '../../src/steps/chat-written.js';

const answer = (messages: readonly HistoryItem[]): HttpResponse => messages.length === 0
  ? { status: 204, headers: {}, text: '', durationMs: 1 }
  : { status: 200, headers: { 'content-type': 'application/json' }, text: JSON.stringify({ messages }), durationMs: 1 };

const item = (clientId: string, text = 'hello'): HistoryItem => ({ message: { client_id: clientId, id: `id-${clientId}`, type: 'text', text } });

/** A session whose history answers come from `history` (offset and limit as asked), counting the requests. */
class ScriptedSession extends ChatSession {
  asked: { offset?: number; limit?: number }[] = [];
  constructor(private readonly answers: (query: { offset: number; limit: number }, n: number) => readonly HistoryItem[]) {
    // Polls for up to 2 s: a read that waits for what it expects ends as soon as it shows.
    const t = { eventually: (probe: () => Promise<unknown>, o: { until?: (v: unknown) => boolean }) => poll(probe, o.until ?? Boolean, 2_000) };
    super(t as unknown as RuleContext, { channelId: 'ch', secret: 's', accountId: 'acc' }, 0);
  }

  override async history(_conversationId: string, query: { offset?: number; limit?: number } = {}): Promise<HttpResponse> {
    this.asked.push(query);
    return answer(this.answers({ offset: query.offset ?? 0, limit: query.limit ?? 50 }, this.asked.length));
  }
}

const payload = (msgid: string, over: Partial<MessagePayload> = {}): MessagePayload =>
  ({ timestamp: 1, msec_timestamp: 1000, conversation_id: 'c1', msgid, sender: { id: 'client', name: 'Client' }, message: { type: 'text', text: 'hello' }, ...over });

describe('readPages', () => {
  it('stops at the first page that repeats one already read: a server that ignores offset costs two requests, not thousands', async () => {
    const full = Array.from({ length: 50 }, (_, i) => item(`m${i}`));
    const s = new ScriptedSession(() => full);
    const items = await s.readPages('c1', 50, () => false);
    expect(s.asked.length).toBe(2);
    // What was read holds the repeat, for the history checks to judge (each message twice).
    expect(items.length).toBe(100);
  });

  it('reads a history that pages honestly to its short last page', async () => {
    const all = Array.from({ length: 120 }, (_, i) => item(`m${i}`));
    const s = new ScriptedSession(({ offset, limit }) => all.slice(offset, offset + limit));
    const items = await s.readPages('c1', 50);
    expect(s.asked.map((q) => q.offset)).toEqual([0, 50, 100]);
    expect(items.map((i) => i.message?.client_id)).toEqual(all.map((i) => i.message?.client_id));
  });
});

describe('allHistory after an edit', () => {
  it('waits until the history shows the edited text, not only the message (a lagging edit shows the old one a while)', async () => {
    // The first two reads show the message as it was before the edit.
    const s = new ScriptedSession((_q, n) => [item('m1', n <= 2 ? 'hello' : 'edited')]);
    s.written.accepted(payload('m1'), 'id-m1');
    s.written.edited({ ...payload('m1'), message: { type: 'text', text: 'edited' } }, { sentAt: 10, answeredAt: 20 });
    const items = await s.allHistory('c1');
    expect(items[0]?.message?.text).toBe('edited');
    expect(s.asked.length).toBe(3);
  });
});

describe('WrittenMessages', () => {
  const shown = (w: WrittenMessages, ...items: HistoryItem[]) => w.allShown('c1', items);

  it('awaits the last of edits sent one after another, and any of edits sent at once (a race ends in either order)', () => {
    const w = new WrittenMessages();
    w.accepted(payload('m1'), 'id-m1');
    const edit = (text: string, sentAt: number, answeredAt: number) => w.edited({ ...payload('m1'), message: { type: 'text', text } }, { sentAt, answeredAt });
    edit('first', 0, 10);
    edit('second', 20, 30);
    expect(shown(w, item('m1', 'first'))).toBe(false);
    expect(shown(w, item('m1', 'second'))).toBe(true);
    edit('third', 40, 60);
    edit('fourth', 45, 55);
    expect(shown(w, item('m1', 'second'))).toBe(false);
    expect(shown(w, item('m1', 'third'))).toBe(true);
    expect(shown(w, item('m1', 'fourth'))).toBe(true);
  });

  it('follows an edit by chat-interface id, and one that rebinds the message to a new msgid', () => {
    const w = new WrittenMessages();
    w.accepted(payload('m1'), 'id-m1');
    w.edited({ ...payload('ignored'), msgid: undefined as unknown as string, id: 'id-m1', message: { type: 'text', text: 'by id' } }, { sentAt: 0, answeredAt: 1 });
    expect(shown(w, item('m1', 'hello'))).toBe(false);
    expect(shown(w, item('m1', 'by id'))).toBe(true);
    w.edited({ ...payload('m2'), id: 'id-m1', message: { type: 'text', text: 'rebound' } }, { sentAt: 2, answeredAt: 3 });
    expect(shown(w, item('m1', 'rebound'))).toBe(false);
    expect(shown(w, item('m2', 'rebound'))).toBe(true);
  });

  it('awaits nothing for an edit of a message it did not write in that conversation, nor a text another form of the same', () => {
    const w = new WrittenMessages();
    w.accepted(payload('m1'), 'id-m1');
    w.edited({ ...payload('m1'), conversation_id: 'c2', message: { type: 'text', text: 'from elsewhere' } }, { sentAt: 0, answeredAt: 1 });
    w.edited({ ...payload('unknown'), message: { type: 'text', text: 'of nothing' } }, { sentAt: 0, answeredAt: 1 });
    expect(shown(w, item('m1', 'hello'))).toBe(true);
    w.edited({ ...payload('m1'), message: { type: 'text', text: 'cafe\u0301' } }, { sentAt: 2, answeredAt: 3 });
    expect(shown(w, item('m1', 'caf\u00e9'))).toBe(true);
  });
});
