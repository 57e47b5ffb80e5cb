/**
 * The emulator's chat interface (§4.3, §5.2): order of checks (signature, then validation, then existence), the MD5
 * over the received bytes, both Date forms, the docs/field-notes.md conveniences, an integration disconnect, and the chat
 * control endpoints. Real HTTP against an ephemeral-port instance.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contentMd5, rfc2822Date } from '../../src/protocol/chat-signature.js';
import { type ChatRequestOptions, Harness } from '../emulator/helpers.js';

let h: Harness;
let scope: string;
beforeAll(async () => { h = await Harness.start(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await h.reset();
  scope = await h.connectChannel();
});

const chat = (method: string, path: string, body?: unknown, o?: ChatRequestOptions) => h.chat(method, path, body, o);

const message = (conv: string, msgid: string, extra: Record<string, unknown> = {}) => ({
  event_type: 'new_message',
  payload: { timestamp: 1_700_000_000, msec_timestamp: 1_700_000_000_000 + msgid.length, conversation_id: conv, msgid, sender: { id: 'client-1', name: 'Client' }, message: { type: 'text', text: 'hi' }, ...extra },
});

describe('order of checks', () => {
  it('answers a bad signature 403 before looking at an invalid body', async () => {
    const r = await chat('POST', `/${scope}`, { nonsense: true }, { secret: 'wrong-secret-wrong-secret' });
    expect(r.status).toBe(403);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(r.json).toEqual({ status: 0, error_code: 403, error_type: 'ORIGIN_INVALID_SIGNATURE', error_description: expect.stringContaining('invalid signature') });
  });

  it('answers an invalid body 400 with every field named, before existence', async () => {
    const r = await chat('POST', `/${scope}/no-such-message/delivery_status`, { status_code: 7 });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([{ field: 'status_code', message: 'must be one of 1, 2, -1' }]);
  });

  it('answers 404 for an unknown message once signature and body hold', async () => {
    expect((await chat('POST', `/${scope}/no-such-message/delivery_status`, { status_code: 1 })).status).toBe(404);
  });

  it('answers malformed JSON with 400 when signed, 403 when not', async () => {
    expect((await chat('POST', `/${scope}`, undefined, { raw: '{"event_type":' })).status).toBe(400);
    expect((await chat('POST', `/${scope}`, undefined, { raw: '{"event_type":', secret: 'x'.repeat(20) })).status).toBe(403);
  });
});

describe('signature details', () => {
  it('hashes the bytes received: the same JSON with other whitespace is another MD5', async () => {
    const body = JSON.stringify(message('c-ws', 'm1'));
    const spaced = body.replace(/,/g, ', ');
    expect((await chat('POST', `/${scope}`, undefined, { raw: spaced, signBody: body })).status).toBe(403);
    expect((await chat('POST', `/${scope}`, undefined, { raw: spaced })).status).toBe(200);
    expect(contentMd5(spaced)).not.toBe(contentMd5(body));
  });

  it('accepts Date with GMT and with a numeric zone, refuses a stale one', async () => {
    expect((await chat('POST', `/${h.env.CHANNEL_ID}/connect`, { account_id: h.env.CHAT_ACCOUNT_ID }, { zone: 'GMT' })).status).toBe(200);
    expect((await chat('POST', `/${h.env.CHANNEL_ID}/connect`, { account_id: h.env.CHAT_ACCOUNT_ID }, { zone: -300 })).status).toBe(200);
    await h.advance(16 * 60);
    expect((await chat('POST', `/${h.env.CHANNEL_ID}/connect`, { account_id: h.env.CHAT_ACCOUNT_ID })).status).toBe(403);
    expect(rfc2822Date(new Date(0), 'GMT')).toBe('Thu, 01 Jan 1970 00:00:00 GMT');
  });

  it('answers 404 for an unknown channel (no secret to check against)', async () => {
    expect((await chat('POST', '/no-such-channel/connect', { account_id: h.env.CHAT_ACCOUNT_ID })).status).toBe(404);
  });
});

describe('docs/field-notes.md conveniences', () => {
  it('answers {"new_message":…}, typing 204, delivery status and react 200 with no body, history by either id', async () => {
    const created = await chat('POST', `/${scope}/chats`, { conversation_id: 'c-1', user: { id: 'client-1', name: 'Client' } });
    const sent = await chat('POST', `/${scope}`, message('c-1', 'm1'));
    expect(sent.json.new_message).toMatchObject({ conversation_id: 'c-1', ref_id: 'm1', receiver_id: null });
    expect((await chat('POST', `/${scope}/typing`, { conversation_id: 'c-1', sender: { id: 'client-1' } })).status).toBe(204);
    const ds = await chat('POST', `/${scope}/m1/delivery_status`, { delivery_status: 2 });
    expect([ds.status, ds.text]).toEqual([200, '']);
    expect((await chat('POST', `/${scope}/react`, { conversation_id: 'c-1', msgid: 'm1', user: { id: 'client-1' }, type: 'react', emoji: 'x' })).text).toBe('');
    for (const id of ['c-1', created.json.id]) {
      const r = await chat('GET', `/${scope}/chats/${id}/history?limit=5`);
      expect(r.json.messages.map((m: { message: { client_id: string } }) => m.message.client_id)).toEqual(['m1']);
    }
  });
});

describe('integration disconnect and control', () => {
  it('disconnects the account\'s channel connection when the integration is disconnected', async () => {
    const built = await chat('POST', `/${scope}`, message('c-2', 'm2'));
    expect(built.status).toBe(200);
    const accounts = (await h.request('GET', '/_control/chat')).json.accounts as { id: number; amojo_id: string }[];
    const main = accounts.find((a) => a.amojo_id === h.env.CHAT_ACCOUNT_ID)!;
    expect(accounts.length).toBeGreaterThan(1);
    const off = await h.postJson('/_control/disconnect', { account_id: main.id });
    if (off.status === 404) return; // the lifecycle control endpoint is not there
    expect((await chat('POST', `/${scope}`, message('c-2', 'm3'))).status).toBe(404);
  });

  it('registers channels without echoing the secret, and validates control bodies', async () => {
    const secret = 'registered-secret-0123456789';
    const made = await h.postJson('/_control/chat/channels', { secret, name: 'Mine' });
    expect(made.status).toBe(201);
    expect(made.text).not.toContain(secret);
    expect((await h.postJson('/_control/chat/channels', { secret: 'short' })).status).toBe(400);
    expect((await h.postJson('/_control/chat/channels', { id: made.json.id, secret })).status).toBe(409);
    expect((await h.postJson('/_control/chat/sources', { account_id: 'nope', external_id: 'x', pipeline_id: 5 })).status).toBe(404);
    expect((await h.request('GET', '/_control/chat/conversations')).status).toBe(400);
    const r = await chat('POST', `/${made.json.id}/connect`, { account_id: h.env.CHAT_ACCOUNT_ID }, { secret });
    expect(r.status).toBe(200);
  });

  it('forgets chats on a control reset', async () => {
    await chat('POST', `/${scope}`, message('c-3', 'm4'));
    await h.reset();
    await chat('POST', `/${h.env.CHANNEL_ID}/connect`, { account_id: h.env.CHAT_ACCOUNT_ID });
    expect((await chat('GET', `/${scope}/chats/c-3/history`)).status).toBe(204);
  });
});
