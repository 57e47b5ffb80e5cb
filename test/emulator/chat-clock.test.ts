/**
 * The chat Date against a moved clock (issue 30): a real chat client signs with its machine's clock, which moving the
 * sandbox clock does not move, so a sandbox (`acceptMachineTime`, on in startSandbox) accepts a Date current by either
 * clock and refuses one current by neither with 403, whichever way it is off. Without it, the emulator keeps the
 * service's single clock, which the kit's own runs measure.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signChatRequest } from '../../src/protocol/chat-signature.js';
import { CHAT_PREFIX, Harness } from './helpers.js';

const MINUTE = 60_000;

describe('the chat Date and the emulator clock, in a sandbox', () => {
  let h: Harness;
  beforeAll(async () => { h = await Harness.start({ acceptMachineTime: true }); });
  afterAll(() => h.close());
  beforeEach(async () => { await h.reset(); });

  const connect = (date: Date) => {
    const url = `${CHAT_PREFIX}/${h.env.CHANNEL_ID}/connect`;
    const body = JSON.stringify({ account_id: h.env.CHAT_ACCOUNT_ID });
    return h.request('POST', url, { body, headers: signChatRequest({ method: 'POST', url, body, secret: h.env.CHANNEL_SECRET!, date }) });
  };

  it('accepts a Date by the machine clock and one by the moved emulator clock, and refuses one current by neither', async () => {
    await h.advance(2 * 86_400);
    // The emulator clock, as its Date header gives it.
    const emulatorNow = Date.parse((await h.request('GET', '/_control/clock')).headers.get('date')!);
    expect(emulatorNow - Date.now()).toBeGreaterThan(86_400_000);
    expect((await connect(new Date())).status).toBe(200);
    expect((await connect(new Date(emulatorNow))).status).toBe(200);
    for (const off of [new Date(Date.now() - 20 * MINUTE), new Date(Date.now() + 20 * MINUTE), new Date(emulatorNow + 20 * MINUTE), new Date(Date.now() + 86_400_000)]) {
      const r = await connect(off);
      expect(r.status, off.toISOString()).toBe(403);
      expect(r.text).toContain('Date is too far');
    }
  });

  it('keeps the service\'s window when the clock was not moved', async () => {
    expect((await connect(new Date(Date.now() - 14 * MINUTE))).status).toBe(200);
    expect((await connect(new Date(Date.now() - 16 * MINUTE))).status).toBe(403);
  });
});

describe('the chat Date and the emulator clock, by default', () => {
  it('refuses a Date by the machine clock once the emulator clock was moved past the window', async () => {
    const h = await Harness.start();
    try {
      const url = `${CHAT_PREFIX}/${h.env.CHANNEL_ID}/connect`;
      const body = JSON.stringify({ account_id: h.env.CHAT_ACCOUNT_ID });
      const send = () => h.request('POST', url, { body, headers: signChatRequest({ method: 'POST', url, body, secret: h.env.CHANNEL_SECRET!, date: new Date() }) });
      expect((await send()).status).toBe(200);
      await h.advance(3_600);
      expect((await send()).status).toBe(403);
    } finally {
      await h.close();
    }
  });
});
