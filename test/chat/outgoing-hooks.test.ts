/**
 * The emulator's outgoing-message hooks (§2.4, §6, §9): each goes with its own connection's hook_api_version (v1 by
 * default, also on a connect after a disconnect), the hooks log carries the v1 or v2 payload as sent
 * (docs/control-api.md), and the faults that break each. Also §3.2: a new installation does not reconnect the channel.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from '../emulator/helpers.js';

let h: Harness;
let accounts: { id: number; amojo_id: string }[];
beforeAll(async () => { h = await Harness.start(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await h.reset();
  accounts = (await h.request('GET', '/_control/chat')).json.accounts;
});
afterEach(() => { h.emu.faults.clear(); });

const other = (): string => accounts.find((a) => a.amojo_id !== h.env.CHAT_ACCOUNT_ID)!.amojo_id;

async function connect(accountId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await h.chat('POST', `/${h.env.CHANNEL_ID}/connect`, { account_id: accountId, ...extra });
  expect(r.status).toBe(200);
  return r.json.scope_id as string;
}

/** A client opens the chat, then a manager writes in it from the account; the hooks logged for that message. */
async function managerMessage(scope: string, conv: string, profile: Record<string, unknown> = {}): Promise<Record<string, any>[]> {
  const sent = await h.chat('POST', `/${scope}`, {
    event_type: 'new_message',
    payload: { timestamp: 1_700_000_000, msec_timestamp: 1_700_000_000_000, conversation_id: conv, msgid: `m-${conv}-${Math.random()}`, sender: { id: `client-${conv}`, name: 'Client', ...profile }, message: { type: 'text', text: 'hi' } },
  });
  expect(sent.status).toBe(200);
  const wrote = await h.postJson('/_control/chat/account-message', { scope_id: scope, conversation_id: conv, text: 'from the account' });
  expect(wrote.status).toBe(200);
  const log = await h.request('GET', `/_control/chat/hooks?scope_id=${encodeURIComponent(scope)}`);
  return (log.json.hooks as Record<string, any>[]).filter((x) => x.msgid === wrote.json.msgid);
}

describe('hook version per connection', () => {
  it('sends each hook with its own connection\'s version, whichever connected last', async () => {
    const v1 = await connect(h.env.CHAT_ACCOUNT_ID!, { hook_api_version: 'v1' });
    const v2 = await connect(other(), { hook_api_version: 'v2' });
    expect((await managerMessage(v1, 'c-v1')).map((x) => x.hook_api_version)).toEqual(['v1']);
    expect((await managerMessage(v2, 'c-v2')).map((x) => x.hook_api_version)).toEqual(['v2']);
  });

  it('takes v1 on a connect without hook_api_version, even after the connection had v2', async () => {
    const scope = await connect(other(), { hook_api_version: 'v2' });
    expect((await h.chat('DELETE', `/${h.env.CHANNEL_ID}/disconnect`, { account_id: other() })).status).toBe(200);
    const again = await h.chat('POST', `/${h.env.CHANNEL_ID}/connect`, { account_id: other() });
    expect(again.json.hook_api_version).toBe('v1');
    expect((await managerMessage(scope, 'c-default')).map((x) => x.hook_api_version)).toEqual(['v1']);
  });

  it('under chat-hook-version-per-channel, sends with the channel\'s latest connect', async () => {
    h.emu.faults.enable('chat-hook-version-per-channel');
    const v1 = await connect(h.env.CHAT_ACCOUNT_ID!, { hook_api_version: 'v1' });
    await connect(other(), { hook_api_version: 'v2' });
    expect((await managerMessage(v1, 'c-v1')).map((x) => x.hook_api_version)).toEqual(['v2']);
  });

  it('under chat-connect-keeps-hook-version, keeps v2 on a connect without the field', async () => {
    h.emu.faults.enable('chat-connect-keeps-hook-version');
    const scope = await connect(other(), { hook_api_version: 'v2' });
    await h.chat('DELETE', `/${h.env.CHANNEL_ID}/disconnect`, { account_id: other() });
    await connect(other());
    expect((await managerMessage(scope, 'c-kept')).map((x) => x.hook_api_version)).toEqual(['v2']);
  });
});

describe('hook payloads', () => {
  it('logs the flat v1 payload, naming the chat and the client by the integration\'s ids', async () => {
    const scope = await connect(h.env.CHAT_ACCOUNT_ID!, { hook_api_version: 'v1' });
    const [hook] = await managerMessage(scope, 'c-p1');
    expect(hook!.payload).toEqual({
      receiver: 'client-c-p1', conversation_id: 'c-p1', msec_timestamp: expect.any(Number), type: 'text', text: 'from the account',
      media: '', thumbnail: '', file_name: '', file_size: 0,
    });
  });

  it('logs the nested v2 payload with both sides\' ids, the account and the time', async () => {
    const scope = await connect(h.env.CHAT_ACCOUNT_ID!, { hook_api_version: 'v2' });
    const [hook] = await managerMessage(scope, 'c-p2', { profile: { phone: '+15550001', email: 'c@example.com' } });
    const p = hook!.payload;
    expect(p).toMatchObject({
      account_id: h.env.CHAT_ACCOUNT_ID, time: expect.any(Number),
      message: {
        receiver: { id: expect.any(String), phone: '+15550001', email: 'c@example.com', client_id: 'client-c-p2' },
        sender: { id: expect.any(String) },
        conversation: { id: expect.any(String), client_id: 'c-p2' },
        timestamp: p.time, msec_timestamp: expect.any(Number),
        message: { id: hook!.msgid, type: 'text', text: 'from the account', markup: null, file_size: 0 },
      },
    });
    expect(p.message.source).toBeUndefined();
  });

  it('under chat-hook-v2-payload-v1-shape, logs v2 with the v1 payload', async () => {
    h.emu.faults.enable('chat-hook-v2-payload-v1-shape');
    const scope = await connect(h.env.CHAT_ACCOUNT_ID!, { hook_api_version: 'v2' });
    const [hook] = await managerMessage(scope, 'c-p3');
    expect(hook!.hook_api_version).toBe('v2');
    expect(hook!.payload.conversation_id).toBe('c-p3');
    expect(hook!.payload.message).toBeUndefined();
  });
});

describe('a new installation after the integration disconnect (§3.2)', () => {
  async function disconnectedThenReinstalled(): Promise<{ scope: string; send: () => Promise<number> }> {
    const scope = await connect(other());
    let n = 0;
    const send = async () => (await h.chat('POST', `/${scope}`, {
      event_type: 'new_message',
      payload: { timestamp: 1_700_000_000, msec_timestamp: 1_700_000_000_000 + n, conversation_id: 'c-re', msgid: `re-${(n += 1)}`, sender: { id: 'client-re', name: 'Client' }, message: { type: 'text', text: 'hi' } },
    })).status;
    expect(await send()).toBe(200);
    const numeric = accounts.find((a) => a.amojo_id === other())!.id;
    expect((await h.postJson('/_control/disconnect', { account_id: numeric })).status).toBe(200);
    expect(await send()).toBe(404);
    expect((await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', account_id: numeric })).status).toBe(200);
    return { scope, send };
  }

  it('leaves the channel disconnected until connect', async () => {
    const { send } = await disconnectedThenReinstalled();
    expect(await send()).toBe(404);
    await connect(other());
    expect(await send()).toBe(200);
  });

  it('under chat-reconnect-on-install, takes messages again without a connect', async () => {
    h.emu.faults.enable('chat-reconnect-on-install');
    const { send } = await disconnectedThenReinstalled();
    expect(await send()).toBe(200);
  });
});
