/**
 * Model-based testing of the chat interface (§4.3) with fast-check commands: random sequences of create chat, send,
 * edit, bulk import, delivery status, reaction and history against a model of what each conversation holds. The
 * history must always match the model: every message once, none lost, edited texts current, pages joining exactly.
 * Each command names what it does, so a shrunk counterexample reads as a script ("Send(c0) Edit(c0#0) History(c0, 2)").
 */
import fc from 'fast-check';
import type { ModelRun } from '../checks/chat-model.js';
import { parseJson } from '../checks/json.js';
import { isSuccess } from '../model/http.js';
import type { HistoryItem } from '../protocol/answers.js';
import { editMessageBody, sampleMessage, type ParticipantBody } from '../protocol/chat.js';
import type { ChatSession } from './chat.js';

/** A disagreement between the target and the model: the property fails with this message. */
export class ModelMismatch extends Error {}

export interface ModelMessage {
  readonly msgid: string;
  id: string;
  text: string;
  readonly msec: number;
}

export interface ChatModel {
  /** Per conversation slot: its messages in the order sent, and whether the chat exists. */
  readonly convs: { created: boolean; messages: ModelMessage[] }[];
}

export interface ChatReal {
  readonly s: ChatSession;
  readonly convIds: readonly string[];
  readonly client: ParticipantBody;
  readonly chatIds: Map<number, string>;
  /** Orders seen in history answers: 'newest first', 'oldest first' or 'other'. */
  readonly orders: Set<string>;
  clockMs: number;
}

type Cmd = fc.AsyncCommand<ChatModel, ChatReal>;
/** One command of the model-based chat rule. */
export type ChatCommand = Cmd;

const ok = (res: { status: number; text: string }, what: string): void => {
  if (!isSuccess(res.status)) throw new ModelMismatch(`${what} answered ${res.status}: ${res.text.slice(0, 120)}`);
};

class CreateChat implements Cmd {
  constructor(readonly conv: number) {}
  check = () => true;
  async run(m: ChatModel, r: ChatReal): Promise<void> {
    const res = await r.s.createChat(r.convIds[this.conv]!, r.client);
    ok(res, this.toString());
    const id = (parseJson(res) as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string') throw new ModelMismatch(`${this.toString()} answered no chat id`);
    const before = r.chatIds.get(this.conv);
    if (before !== undefined && before !== id) throw new ModelMismatch(`${this.toString()} answered chat ${id}, earlier ${before}: not idempotent`);
    r.chatIds.set(this.conv, id);
    m.convs[this.conv]!.created = true;
  }
  toString = () => `CreateChat(c${this.conv})`;
}

class Send implements Cmd {
  constructor(readonly conv: number, readonly text: string) {}
  check = () => true;
  async run(m: ChatModel, r: ChatReal): Promise<void> {
    r.clockMs += 1000;
    const p = r.s.payload(r.convIds[this.conv]!, r.client, { message: sampleMessage('text', this.text || '-') }, r.clockMs);
    const res = await r.s.sendMessage(p);
    ok(res, this.toString());
    const id = (parseJson(res) as { new_message?: { msgid?: string } } | undefined)?.new_message?.msgid ?? '';
    m.convs[this.conv]!.messages.push({ msgid: p.msgid, id, text: this.text || '-', msec: r.clockMs });
    m.convs[this.conv]!.created = true;
  }
  toString = () => `Send(c${this.conv}, ${JSON.stringify(this.text)})`;
}

class Edit implements Cmd {
  constructor(readonly conv: number, readonly pick: number, readonly text: string, readonly byId: boolean) {}
  check = (m: Readonly<ChatModel>) => m.convs[this.conv]!.messages.length > 0;
  async run(m: ChatModel, r: ChatReal): Promise<void> {
    const list = m.convs[this.conv]!.messages;
    const target = list[this.pick % list.length]!;
    const text = `${this.text}-edited`;
    const ids = this.byId && target.id ? { id: target.id } : { msgid: target.msgid };
    const res = await r.s.postEvent(editMessageBody({ conversation_id: r.convIds[this.conv]!, ...ids, message: { type: 'text', text } }));
    ok(res, this.toString());
    target.text = text;
  }
  toString = () => `Edit(c${this.conv}#${this.pick}, by ${this.byId ? 'id' : 'msgid'})`;
}

class Import implements Cmd {
  constructor(readonly conv: number, readonly count: number) {}
  check = () => true;
  async run(m: ChatModel, r: ChatReal): Promise<void> {
    // Older than anything sent so far, oldest first; silent on all but the newest (§4.3 rule 2).
    const start = r.clockMs - 10_000_000 - this.count * 1000;
    for (let i = 0; i < this.count; i += 1) {
      const msec = start + i * 1000 + m.convs[this.conv]!.messages.length;
      const p = r.s.payload(r.convIds[this.conv]!, r.client, { silent: i < this.count - 1, message: sampleMessage('text', `imported ${i}`) }, msec);
      const res = await r.s.sendMessage(p);
      ok(res, this.toString());
      const id = (parseJson(res) as { new_message?: { msgid?: string } } | undefined)?.new_message?.msgid ?? '';
      m.convs[this.conv]!.messages.push({ msgid: p.msgid, id, text: `imported ${i}`, msec });
    }
    m.convs[this.conv]!.created = true;
  }
  toString = () => `Import(c${this.conv}, ${this.count})`;
}

class Status implements Cmd {
  constructor(readonly conv: number, readonly pick: number, readonly code: 1 | 2 | -1) {}
  check = (m: Readonly<ChatModel>) => m.convs[this.conv]!.messages.length > 0;
  async run(m: ChatModel, r: ChatReal): Promise<void> {
    const list = m.convs[this.conv]!.messages;
    const target = list[this.pick % list.length]!;
    const body = this.code === -1 ? { status_code: -1, error_code: 905, error: 'not delivered' } : { status_code: this.code };
    // The path names the chat-interface id (new_message.msgid, C25); the integration-side msgid only when none was answered.
    ok(await r.s.deliveryStatus(target.id || target.msgid, body), this.toString());
  }
  toString = () => `Status(c${this.conv}#${this.pick}, ${this.code})`;
}

class React implements Cmd {
  constructor(readonly conv: number, readonly pick: number, readonly type: 'react' | 'unreact', readonly byId: boolean) {}
  check = (m: Readonly<ChatModel>) => m.convs[this.conv]!.messages.length > 0;
  async run(m: ChatModel, r: ChatReal): Promise<void> {
    const list = m.convs[this.conv]!.messages;
    const target = list[this.pick % list.length]!;
    // §4.3 react: `id` is the account-side (chat-interface) id, `msgid` the integration-side one.
    const ids = this.byId && target.id ? { id: target.id } : { msgid: target.msgid };
    ok(await r.s.react({ conversation_id: r.convIds[this.conv]!, ...ids, user: { id: r.client.id }, type: this.type, ...(this.type === 'react' && { emoji: '👍' }) }), this.toString());
  }
  toString = () => `React(c${this.conv}#${this.pick}, ${this.type}, by ${this.byId ? 'id' : 'msgid'})`;
}

class History implements Cmd {
  constructor(readonly conv: number, readonly pageSize: number) {}
  check = () => true;
  async run(m: ChatModel, r: ChatReal): Promise<void> {
    const expected = m.convs[this.conv]!.messages;
    const items = await r.s.allHistory(r.convIds[this.conv]!, (i) => i.length >= expected.length);
    compare(this.toString(), expected, items);
    if (this.pageSize < 50 && expected.length > this.pageSize) {
      const paged = await r.s.readPages(r.convIds[this.conv]!, this.pageSize, (i) => i.length >= expected.length);
      compare(`${this.toString()} in pages of ${this.pageSize}`, expected, paged);
    }
    if (expected.length >= 2) r.orders.add(orderOf(expected, items));
  }
  toString = () => `History(c${this.conv}, pages of ${this.pageSize})`;
}

function compare(what: string, expected: readonly ModelMessage[], items: readonly HistoryItem[]): void {
  const seen = new Map<string, number>();
  for (const i of items) {
    const id = i.message?.client_id;
    if (typeof id !== 'string') throw new ModelMismatch(`${what}: a history element has no message.client_id`);
    seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  const lost = expected.filter((e) => !seen.has(e.msgid));
  const repeated = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  const unknown = [...seen.keys()].filter((id) => !expected.some((e) => e.msgid === id));
  if (lost.length || repeated.length || unknown.length) {
    throw new ModelMismatch(`${what}: expected ${expected.length} messages each once; ${lost.length} lost, ${repeated.length} repeated, ${unknown.length} unknown (history has ${items.length})`);
  }
  for (const e of expected) {
    const text = items.find((i) => i.message?.client_id === e.msgid)?.message?.text;
    if (text !== e.text) throw new ModelMismatch(`${what}: message ${e.msgid} has text ${JSON.stringify(text)}, expected ${JSON.stringify(e.text)}`);
  }
}

function orderOf(expected: readonly ModelMessage[], items: readonly HistoryItem[]): string {
  const byTime = [...expected].sort((a, b) => a.msec - b.msec).map((e) => e.msgid).join(',');
  const seen = items.map((i) => i.message?.client_id).join(',');
  if (seen === byTime) return 'oldest first';
  if (seen === [...expected].sort((a, b) => b.msec - a.msec).map((e) => e.msgid).join(',')) return 'newest first';
  return 'another order (not by message time)';
}

export const CONVERSATIONS = 2;

/**
 * Sequences run every time before the generated ones, whatever the case count (the quick profile's 5 cases may draw
 * no edit or no paged read): messages, an edit and a reaction each by msgid and by id, an import, and history read in
 * pages of 2 and 3.
 */
export function namedChatSequences(): Iterable<ChatCommand>[] {
  return [[
    new CreateChat(0), new Send(0, 'one'), new Send(0, 'two'), new Send(0, 'three'), new Edit(0, 1, 'edited', false),
    new Send(1, 'a'), new Import(1, 3), new Edit(1, 0, 'by id', true), new History(0, 2), new History(1, 3),
    new Status(0, 0, 2), new React(1, 1, 'react', false), new React(0, 2, 'react', true),
  ]];
}

/** Command sequences over two conversations. */
export function chatCommands(maxCommands = 10): fc.Arbitrary<Iterable<Cmd>> {
  const conv = fc.nat({ max: CONVERSATIONS - 1 });
  return fc.commands<ChatModel, ChatReal, false>([
    conv.map((c) => new CreateChat(c)),
    fc.tuple(conv, fc.string({ maxLength: 8 })).map(([c, text]) => new Send(c, text)),
    fc.tuple(conv, fc.string({ maxLength: 8 })).map(([c, text]) => new Send(c, text)),
    fc.tuple(conv, fc.nat(), fc.string({ maxLength: 6 }), fc.boolean()).map(([c, p, text, byId]) => new Edit(c, p, text, byId)),
    fc.tuple(conv, fc.integer({ min: 2, max: 4 })).map(([c, n]) => new Import(c, n)),
    fc.tuple(conv, fc.nat(), fc.constantFrom(1 as const, 2 as const, -1 as const)).map(([c, p, code]) => new Status(c, p, code)),
    fc.tuple(conv, fc.nat(), fc.constantFrom('react' as const, 'unreact' as const), fc.boolean()).map(([c, p, type, byId]) => new React(c, p, type, byId)),
    fc.tuple(conv, fc.constantFrom(2, 3, 50)).map(([c, size]) => new History(c, size)),
  ], { maxCommands });
}

/**
 * Runs one command sequence on fresh conversations; always ends by reading every conversation's history. Returns the
 * departures the reading calls non_strict: a conversation without messages answered 200 with an empty `messages`
 * array instead of 204 (C51).
 */
export async function runChatModel(s: ChatSession, cmds: Iterable<Cmd>, orders: Set<string>): Promise<string[]> {
  const nonStrict: string[] = [];
  const real: ChatReal = { s, convIds: Array.from({ length: CONVERSATIONS }, () => s.conversationId()), client: s.client(), chatIds: new Map(), orders, clockMs: Date.now() };
  const model: ChatModel = { convs: Array.from({ length: CONVERSATIONS }, () => ({ created: false, messages: [] })) };
  await fc.asyncModelRun(() => ({ model, real }), cmds);
  for (let c = 0; c < CONVERSATIONS; c += 1) {
    const expected = model.convs[c]!.messages;
    if (expected.length === 0) {
      const res = await s.history(real.convIds[c]!);
      const messages = res.status === 200 ? (parseJson(res) as { messages?: unknown } | undefined)?.messages : undefined;
      if (Array.isArray(messages) && messages.length === 0) nonStrict.push(`final history of c${c}, which has no messages: 200 with an empty messages array, not 204`);
      else if (res.status !== 204) throw new ModelMismatch(`final history of c${c}, which has no messages: expected 204, observed ${res.status}`);
      continue;
    }
    const items = await s.allHistory(real.convIds[c]!, (i) => i.length >= expected.length);
    compare(`final history of c${c}`, expected, items);
  }
  return nonStrict;
}

/**
 * One command sequence run as `runChatModel` runs it, its outcome as a value for the judge (src/checks/chat-model.ts):
 * a mismatch with the model is what the sequence observed, not an error of the rule.
 */
export async function observeChatModel(s: ChatSession, cmds: Iterable<Cmd>, orders: Set<string>): Promise<ModelRun> {
  try {
    return { departures: await runChatModel(s, cmds, orders) };
  } catch (err) {
    if (err instanceof ModelMismatch) return { mismatch: err.message, departures: [] };
    throw err;
  }
}
