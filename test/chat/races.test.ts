/**
 * The emulator under parallel chat requests (connects, one msgid sent again, edits of one message), forwards naming a
 * chat by conversation_ref_id, and imported bot messages: strict with the faults off, and each race fault misbehaving
 * only when requests overlap. Real HTTP against an ephemeral-port instance.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FaultName } from '../../src/emulator/index.js';
import { Harness } from '../emulator/helpers.js';

let h: Harness;
let scope: string;
beforeAll(async () => { h = await Harness.start(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await h.reset();
  h.emu.faults.clear();
  scope = await h.connectChannel();
});

const client = { id: 'client-1', name: 'Client' };

const message = (conv: string, msgid: string, extra: Record<string, unknown> = {}) => ({
  event_type: 'new_message',
  payload: { timestamp: 1_700_000_000, msec_timestamp: 1_700_000_000_000, conversation_id: conv, msgid, sender: client, message: { type: 'text', text: 'hi' }, ...extra },
});

const edit = (conv: string, msgid: string, text: string) => ({ event_type: 'edit_message', payload: { conversation_id: conv, msgid, message: { type: 'text', text } } });

async function history(conv: string, at = scope): Promise<{ client_id: string; text: string }[]> {
  const r = await h.chat('GET', `/${at}/chats/${conv}/history`);
  return r.status === 204 ? [] : (r.json.messages as { message: { client_id: string; text: string } }[]).map((m) => m.message);
}

const times = <T>(n: number, f: (i: number) => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

function withFault(name: FaultName): void {
  h.emu.faults.enable(name);
}

describe('parallel connects', () => {
  const connect = () => h.chat('POST', `/${h.env.CHANNEL_ID}/connect`, { account_id: h.env.CHAT_ACCOUNT_ID });

  it('give one scope_id', async () => {
    const answers = await times(8, connect);
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((r) => r.json.scope_id))).toEqual(new Set([scope]));
  });

  it('give a second scope_id under chat-connect-race, and one when not overlapping', async () => {
    withFault('chat-connect-race');
    const alone = await connect();
    expect(alone.json.scope_id).toBe(scope);
    const answers = await times(8, connect);
    const scopes = new Set(answers.map((r) => r.json.scope_id as string));
    expect(scopes.size).toBeGreaterThan(1);
    const other = [...scopes].find((s) => s !== scope)!;
    expect((await h.chat('POST', `/${other}`, message('c-raced', 'm1'))).status).toBe(200);
  });
});

describe('one msgid sent again', () => {
  it('is stored once, in sequence and in parallel', async () => {
    for (let i = 0; i < 3; i += 1) expect((await h.chat('POST', `/${scope}`, message('c-seq', 'm1'))).status).toBe(200);
    const parallel = await times(8, () => h.chat('POST', `/${scope}`, message('c-par', 'm2')));
    expect(parallel.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await history('c-seq')).toHaveLength(1);
    expect(await history('c-par')).toHaveLength(1);
  });

  it('is stored more than once in parallel under chat-msgid-race, once in sequence', async () => {
    withFault('chat-msgid-race');
    for (let i = 0; i < 3; i += 1) await h.chat('POST', `/${scope}`, message('c-seq', 'm1'));
    await times(8, () => h.chat('POST', `/${scope}`, message('c-par', 'm2')));
    expect(await history('c-seq')).toHaveLength(1);
    expect((await history('c-par')).length).toBeGreaterThan(1);
  });
});

describe('parallel edits of one message', () => {
  const texts = Array.from({ length: 8 }, (_, i) => `edit ${i}`);

  it('leave it once, with one of their texts', async () => {
    await h.chat('POST', `/${scope}`, message('c-edit', 'm1'));
    const answers = await Promise.all(texts.map((t) => h.chat('POST', `/${scope}`, edit('c-edit', 'm1', t))));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const held = await history('c-edit');
    expect(held).toHaveLength(1);
    expect(texts).toContain(held[0]!.text);
  });

  it('add messages under chat-edit-race; one edit alone still changes it in place', async () => {
    withFault('chat-edit-race');
    await h.chat('POST', `/${scope}`, message('c-edit', 'm1'));
    await h.chat('POST', `/${scope}`, edit('c-edit', 'm1', 'alone'));
    expect(await history('c-edit')).toEqual([expect.objectContaining({ client_id: 'm1', text: 'alone' })]);
    await Promise.all(texts.map((t) => h.chat('POST', `/${scope}`, edit('c-edit', 'm1', t))));
    expect((await history('c-edit')).length).toBeGreaterThan(1);
  });
});

describe('forwards.conversation_ref_id', () => {
  /** A message in conversation c-src (chat id returned), and a forward of it from c-fwd naming `ref`. */
  async function source(): Promise<string> {
    const made = await h.chat('POST', `/${scope}/chats`, { conversation_id: 'c-src', user: client });
    await h.chat('POST', `/${scope}`, message('c-src', 'm-src'));
    return made.json.id as string;
  }
  const forward = (msgid: string, ref: string) => h.chat('POST', `/${scope}`, message('c-fwd', msgid, { forwards: { messages: [{ msgid: 'm-src' }], conversation_ref_id: ref } }));

  /** A chat of the configured channel in the second account: its chat id. */
  async function foreign(): Promise<string> {
    const accounts = (await h.request('GET', '/_control/chat')).json.accounts as { amojo_id: string }[];
    const other = accounts.find((a) => a.amojo_id !== h.env.CHAT_ACCOUNT_ID)!.amojo_id;
    const at = (await h.chat('POST', `/${h.env.CHANNEL_ID}/connect`, { account_id: other })).json.scope_id as string;
    return (await h.chat('POST', `/${at}/chats`, { conversation_id: 'c-foreign', user: client })).json.id as string;
  }

  it('accepts a chat of the connection, refuses a made-up id and another account\'s chat with 400', async () => {
    const own = await source();
    expect((await forward('m-own', own)).status).toBe(200);
    const madeUp = await forward('m-none', 'no-such-chat');
    expect(madeUp.status).toBe(400);
    expect(madeUp.json.errors).toEqual([{ field: 'payload.forwards.conversation_ref_id', message: 'is not a chat of this integration' }]);
    expect((await forward('m-foreign', await foreign())).status).toBe(400);
    expect((await history('c-fwd')).map((m) => m.client_id)).toEqual(['m-own']);
  });

  it('accepts a made-up id under chat-forwards-ref-id-unchecked', async () => {
    withFault('chat-forwards-ref-id-unchecked');
    await source();
    expect((await forward('m-none', 'no-such-chat')).status).toBe(200);
  });

  it('accepts another account\'s chat, not a made-up id, under chat-forwards-ref-id-any-account', async () => {
    withFault('chat-forwards-ref-id-any-account');
    await source();
    expect((await forward('m-foreign', await foreign())).status).toBe(200);
    expect((await forward('m-none', 'no-such-chat')).status).toBe(400);
  });
});

describe('imported bot messages', () => {
  const botId = () => h.env.BOT_ID!;
  const imported = (msgid: string, silent: boolean) => message('c-bot', msgid, { sender: { id: `bot-${botId()}`, ref_id: botId(), name: 'Bot' }, receiver: client, silent });
  const hooks = async () => (await h.request('GET', `/_control/chat/hooks?scope_id=${encodeURIComponent(scope)}&conversation_id=c-bot`)).json.hooks as unknown[];

  it('send no outgoing-message hook; a manager writing from the account does', async () => {
    await h.chat('POST', `/${scope}`, message('c-bot', 'm1'));
    expect((await h.chat('POST', `/${scope}`, imported('m2', true))).status).toBe(200);
    expect(await hooks()).toHaveLength(0);
    expect((await h.postJson('/_control/chat/account-message', { scope_id: scope, conversation_id: 'c-bot', text: 'from the account' })).status).toBe(200);
    expect(await hooks()).toHaveLength(1);
  });

  it('send the hook back under chat-imported-bot-hook, only when silent', async () => {
    withFault('chat-imported-bot-hook');
    await h.chat('POST', `/${scope}`, imported('m1', false));
    expect(await hooks()).toHaveLength(0);
    await h.chat('POST', `/${scope}`, imported('m2', true));
    expect(await hooks()).toHaveLength(1);
  });
});
