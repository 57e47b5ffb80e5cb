/**
 * The chat scope's HTTP behaviour common to every route (src/emulator/chat/http.ts): 405 with Allow on the path of an
 * endpoint, 404 with a JSON body elsewhere, 413 for a body over the limit (the endpoint still answering), UTF-8 text.
 * Real HTTP against an ephemeral-port instance.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allowedMethods } from '../../src/emulator/chat/http.js';
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

describe('allowedMethods', () => {
  it('names the one method of each endpoint shape, HEAD with GET, nothing for other shapes', () => {
    expect(allowedMethods('/ch/connect')).toEqual(['POST']);
    expect(allowedMethods('/ch/disconnect')).toEqual(['DELETE']);
    expect(allowedMethods('/sc')).toEqual(['POST']);
    expect(allowedMethods('/sc/m1/delivery_status')).toEqual(['POST']);
    expect(allowedMethods('/sc/chats/c1/history?offset=1')).toEqual(['GET', 'HEAD']);
    expect(allowedMethods('/sc/no-such-endpoint')).toEqual([]);
    expect(allowedMethods('/sc/chats/c1/messages')).toEqual([]);
  });
});

describe('methods and paths', () => {
  it('answers another method on an endpoint 405 with Allow and a JSON body', async () => {
    const r = await chat('GET', `/${h.env.CHANNEL_ID}/connect`);
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.json).toMatchObject({ error_code: 405 });
    const history = await chat('POST', `/${scope}/chats/c1/history`, {});
    expect([history.status, history.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('still checks the signature before the method', async () => {
    expect((await chat('GET', `/${scope}/typing`, undefined, { secret: 'wrong-secret-wrong-secret' })).status).toBe(403);
  });

  it('answers an unknown path 404 with a JSON body', async () => {
    const r = await chat('POST', `/${scope}/no-such-endpoint`, {});
    expect(r.status).toBe(404);
    expect(r.contentType).toMatch(/^application\/json/);
  });
});

describe('body size and text', () => {
  it('answers a body over 1 MB 413 and the next message 200', async () => {
    const message = (text: string) => ({ event_type: 'new_message', payload: { timestamp: 1_700_000_000, msec_timestamp: 1_700_000_000_000, conversation_id: 'c-big', msgid: `m-${text.length}`, sender: { id: 'client-1', name: 'Client' }, message: { type: 'text', text } } });
    const big = await chat('POST', `/${scope}`, message('x'.repeat(2 * 1024 * 1024)));
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ error_code: 413 });
    expect((await chat('POST', `/${scope}`, message('small'))).status).toBe(200);
  });

  it('reads the body as UTF-8', async () => {
    const text = 'Привет 👩‍👩‍👧 e\u0301';
    const sent = await chat('POST', `/${scope}`, { event_type: 'new_message', payload: { timestamp: 1_700_000_000, msec_timestamp: 1_700_000_000_000, conversation_id: 'c-utf8', msgid: 'm-utf8', sender: { id: 'client-1', name: 'Анна' }, message: { type: 'text', text } } });
    expect(sent.status).toBe(200);
    const history = await chat('GET', `/${scope}/chats/c-utf8/history`);
    expect(history.json.messages[0].message.text).toBe(text);
    expect(history.json.messages[0].sender.name).toBe('Анна');
  });
});
