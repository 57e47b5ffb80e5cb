/**
 * What the emulator's account keeps from chat messages, read through GET /_control/chat/messages and
 * /_control/chat/unsorted: the profile in the lead's contact (§2.5), the shared post's preview (§2.8), resolved quotes
 * (§2.11), the delivery status a message comes with (§3.3), and a channel's reply time window (§2.4). Each behaviour
 * is also shown broken by its fault. Real HTTP against an ephemeral-port instance.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from '../emulator/helpers.js';

let h: Harness;
let scope: string;
beforeAll(async () => { h = await Harness.start(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await h.reset();
  scope = await h.connectChannel();
});

const T0 = 1_700_000_000;
const CLIENT = { id: 'client-1', name: 'Client' };

function payload(conv: string, msgid: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { timestamp: T0, msec_timestamp: T0 * 1000 + msgid.length, conversation_id: conv, msgid, sender: CLIENT, message: { type: 'text', text: `text of ${msgid}` }, ...extra };
}

async function send(p: Record<string, unknown>, to = scope, secret?: string): Promise<number> {
  return (await h.chat('POST', `/${to}`, { event_type: 'new_message', payload: p }, secret ? { secret } : {})).status;
}

async function stored(conv: string, msgid: string, at = scope): Promise<Record<string, any>> {
  const r = await h.request('GET', `/_control/chat/messages?scope_id=${encodeURIComponent(at)}&conversation_id=${encodeURIComponent(conv)}`);
  expect(r.status).toBe(200);
  return (r.json.messages as Record<string, any>[]).find((m) => m.msgid === msgid)!;
}

const withFault = async (name: string, body: () => Promise<void>) => {
  h.emu.faults.enable(name);
  try { await body(); } finally { h.emu.faults.disable(name); }
};

describe('the stored message', () => {
  it('shows type, sender, times, no delivery status while sent, no quotes', async () => {
    expect(await send(payload('c-1', 'm1'))).toBe(200);
    const m = await stored('c-1', 'm1');
    expect(m).toMatchObject({ msgid: 'm1', type: 'text', text: 'text of m1', timestamp: T0, msec_timestamp: T0 * 1000 + 2, delivery_status: null, reply_to: null, forwards: [] });
    expect(m.sender).toEqual({ id: expect.any(String), client_id: 'client-1', name: 'Client' });
    expect(m).not.toHaveProperty('shared_post');
  });

  it('keeps the delivery status a message comes with (§2.7); the default fault makes an unmarked one delivered', async () => {
    await send(payload('c-1', 'm1', { message: { type: 'text', text: 'x', delivery_status: { status_code: 2 } } }));
    expect((await stored('c-1', 'm1')).delivery_status).toEqual({ status_code: 2 });
    await withFault('chat-status-default-delivered', async () => {
      await send(payload('c-1', 'm2'));
      expect((await stored('c-1', 'm2')).delivery_status).toEqual({ status_code: 1 });
    });
  });
});

describe('profile to contact (§2.5)', () => {
  const profiled = { ...CLIENT, profile: { phone: '+79001234567', email: 'client@example.com' } };
  const leadOf = async (conv: string) => (await h.request('GET', `/_control/chat/unsorted?scope_id=${scope}&conversation_id=${conv}`)).json.leads[0];

  it('puts the first message\'s profile phone and email in the unsorted lead\'s contact', async () => {
    await send(payload('c-1', 'm1', { sender: profiled }));
    expect((await leadOf('c-1')).contact).toEqual({ name: 'Client', phone: '+79001234567', email: 'client@example.com' });
  });

  it('leaves them out under chat-profile-not-in-contact', async () => {
    await withFault('chat-profile-not-in-contact', async () => {
      await send(payload('c-1', 'm1', { sender: profiled }));
      expect((await leadOf('c-1')).contact).toEqual({ name: 'Client' });
    });
  });
});

describe('shared post preview (§2.8)', () => {
  const LINK = 'https://cdn.social.example/tmp/p.jpg?expires=1';
  const PERMALINK = 'https://social.example/p/1/preview.jpg';
  const shared = (conv: string, msgid: string, preview: Record<string, string>) =>
    send(payload(conv, msgid, { message: { type: 'text', text: 'look', shared_post: { url: 'https://social.example/p/1', type: 'post', site_name: 'Social', ...preview } } }));

  it('downloads preview_link, keeps preview_permalink, prefers the permalink, and has none without either', async () => {
    await shared('c-1', 'link', { preview_link: LINK });
    await shared('c-1', 'perma', { preview_permalink: PERMALINK });
    await shared('c-1', 'both', { preview_link: LINK, preview_permalink: PERMALINK });
    await shared('c-1', 'none', {});
    const link = await stored('c-1', 'link');
    expect(link.shared_post).toEqual({ url: 'https://social.example/p/1', type: 'post', site_name: 'Social', preview: { source: 'downloaded', url: expect.stringMatching(/\/files\/previews\/[0-9a-f-]{36}$/) } });
    expect(link.shared_post.preview.url).not.toBe(LINK);
    expect((await stored('c-1', 'perma')).shared_post.preview).toEqual({ source: 'permalink', url: PERMALINK });
    expect((await stored('c-1', 'both')).shared_post.preview).toEqual({ source: 'permalink', url: PERMALINK });
    expect((await stored('c-1', 'none')).shared_post.preview).toBeNull();
  });

  it('keeps the temporary link under chat-preview-link-kept, and downloads it over the permalink under chat-preview-link-preferred', async () => {
    await withFault('chat-preview-link-kept', async () => {
      await shared('c-1', 'kept', { preview_link: LINK });
      expect((await stored('c-1', 'kept')).shared_post.preview).toEqual({ source: 'link', url: LINK });
    });
    await withFault('chat-preview-link-preferred', async () => {
      await shared('c-1', 'preferred', { preview_link: LINK, preview_permalink: PERMALINK });
      expect((await stored('c-1', 'preferred')).shared_post.preview.source).toBe('downloaded');
    });
  });
});

describe('resolved quotes (§2.11)', () => {
  let quoted: Record<string, any>;
  beforeEach(async () => {
    expect(await send(payload('c-1', 'q1', { message: { type: 'text', text: 'the quoted one' } }))).toBe(200);
    quoted = await stored('c-1', 'q1');
  });
  const resolved = () => ({ id: quoted.id, msgid: 'q1', type: 'text', text: 'the quoted one', timestamp: quoted.timestamp, msec_timestamp: quoted.msec_timestamp, sender: quoted.sender });

  it('resolves reply_to and forwards named by msgid only or by id only', async () => {
    await send(payload('c-1', 'r-msgid', { reply_to: { message: { msgid: 'q1' } } }));
    await send(payload('c-1', 'r-id', { reply_to: { message: { id: quoted.id } } }));
    await send(payload('c-1', 'f-msgid', { forwards: { messages: [{ msgid: 'q1' }] } }));
    await send(payload('c-1', 'f-id', { forwards: { messages: [{ id: quoted.id }] } }));
    expect((await stored('c-1', 'r-msgid')).reply_to).toEqual({ message: resolved() });
    expect((await stored('c-1', 'r-id')).reply_to).toEqual({ message: resolved() });
    expect((await stored('c-1', 'f-msgid')).forwards).toEqual([resolved()]);
    expect((await stored('c-1', 'f-id')).forwards).toEqual([resolved()]);
  });

  it('keeps a quote given in full as given, its sender by the integration-side id', async () => {
    const given = { type: 'text', text: 'from elsewhere', timestamp: T0 - 60, msec_timestamp: (T0 - 60) * 1000, sender: { id: 'someone', name: 'Someone' } };
    await send(payload('c-1', 'r-full', { reply_to: { message: given } }));
    expect((await stored('c-1', 'r-full')).reply_to).toEqual({ message: { ...given, sender: { client_id: 'someone', name: 'Someone' } } });
  });

  it('keeps the ids only under chat-quote-unresolved, and msgid-only quotes unresolved under chat-quote-msgid-unresolved', async () => {
    await withFault('chat-quote-unresolved', async () => {
      await send(payload('c-1', 'u-id', { reply_to: { message: { id: quoted.id } } }));
      expect((await stored('c-1', 'u-id')).reply_to).toEqual({ message: { id: quoted.id } });
    });
    await withFault('chat-quote-msgid-unresolved', async () => {
      await send(payload('c-1', 'u-msgid', { forwards: { messages: [{ msgid: 'q1' }] } }));
      await send(payload('c-1', 'u-by-id', { forwards: { messages: [{ id: quoted.id }] } }));
      expect((await stored('c-1', 'u-msgid')).forwards).toEqual([{ msgid: 'q1' }]);
      expect((await stored('c-1', 'u-by-id')).forwards).toEqual([resolved()]);
    });
  });
});

describe('reply time window (§2.4)', () => {
  const SECRET = 'window-channel-secret-0123456789';
  const WINDOW = 60;
  let channel: { id: string; bot_id: string };
  let other: string;

  beforeEach(async () => {
    const made = await h.postJson('/_control/chat/channels', { secret: SECRET, name: 'Windowed', reply_window_s: WINDOW });
    expect(made.status).toBe(201);
    expect(made.json.reply_window_s).toBe(WINDOW);
    channel = made.json;
    const accounts = (await h.request('GET', '/_control/chat')).json.accounts as { amojo_id: string }[];
    other = accounts.find((a) => a.amojo_id !== h.env.CHAT_ACCOUNT_ID)!.amojo_id;
  });

  const connect = async (account: string, disabled: boolean) =>
    (await h.chat('POST', `/${channel.id}/connect`, { account_id: account, is_time_window_disabled: disabled }, { secret: SECRET })).json.scope_id as string;
  const reply = (at: string, msgid: string) =>
    send({ ...payload('c-w', msgid), sender: { id: 'bot', ref_id: channel.bot_id, name: 'Bot' }, receiver: CLIENT }, at, SECRET);

  it('validates reply_window_s and lists it', async () => {
    for (const bad of [0, -1, 1.5, '60', 31 * 86_400]) {
      expect((await h.postJson('/_control/chat/channels', { secret: SECRET, reply_window_s: bad })).status, String(bad)).toBe(400);
    }
    const listed = (await h.request('GET', '/_control/chat')).json.channels as { id: string; reply_window_s: number | null }[];
    expect(listed.find((c) => c.id === channel.id)?.reply_window_s).toBe(WINDOW);
    expect(listed.find((c) => c.id === h.env.CHANNEL_ID)?.reply_window_s).toBeNull();
  });

  it('refuses a late reply with 400 unless the connection disables the window; a reply inside it, or to a chat without a client message, passes', async () => {
    const [off, on] = [await connect(h.env.CHAT_ACCOUNT_ID!, false), await connect(other, true)];
    expect(await reply(off, 'early-without-client')).toBe(200);
    for (const at of [off, on]) expect(await send(payload('c-w', `client-${at}`), at, SECRET)).toBe(200);
    expect(await reply(off, 'in-window')).toBe(200);
    await h.advance(WINDOW + 5);
    const late = await h.chat('POST', `/${off}`, { event_type: 'new_message', payload: { ...payload('c-w', 'late'), sender: { id: 'bot', ref_id: channel.bot_id, name: 'Bot' }, receiver: CLIENT } }, { secret: SECRET });
    expect([late.status, late.json.error_type]).toEqual([400, 'TIME_WINDOW_EXPIRED']);
    expect(await reply(on, 'late-but-disabled')).toBe(200);
    expect(await send(payload('c-w', 'client-again'), off, SECRET)).toBe(200);
    expect(await reply(off, 'after-the-client-wrote-again')).toBe(200);
  });

  it('accepts the late reply under chat-time-window-unenforced, refuses the disabled one under chat-time-window-disable-ignored', async () => {
    const [off, on] = [await connect(h.env.CHAT_ACCOUNT_ID!, false), await connect(other, true)];
    for (const at of [off, on]) await send(payload('c-w', `client-${at}`), at, SECRET);
    await h.advance(WINDOW + 5);
    await withFault('chat-time-window-unenforced', async () => { expect(await reply(off, 'late-1')).toBe(200); });
    await withFault('chat-time-window-disable-ignored', async () => { expect(await reply(on, 'late-2')).toBe(400); });
  });

  it('leaves channels without a window unlimited', async () => {
    await send(payload('c-1', 'm1'));
    // 10 minutes: far past this suite's window, still inside the 15 minutes a Date header may be off (§5.2).
    await h.advance(600);
    expect(await send({ ...payload('c-1', 'm2'), sender: { id: 'bot', ref_id: h.env.BOT_ID, name: 'Bot' }, receiver: CLIENT })).toBe(200);
  });
});
