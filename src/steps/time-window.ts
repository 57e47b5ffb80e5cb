/**
 * §2.4 reply time window: a channel of the rule's own, registered through the control API with a reply window
 * (`reply_window_s`), connected to the configured account with `is_time_window_disabled: false` and to a second
 * account with `true`; in each, the client has written. Then the window passes on the control clock (put back by
 * `resetClock` whatever happens) and the bot replies in both. The sessions are made again after the clock moved, so
 * that their Date headers follow the target's clock (§5.2 accepts them within minutes only).
 */
import { randomUUID } from 'node:crypto';
import { briefBody } from '../checks/status.js';
import { stringAt } from '../checks/fields.js';
import { TargetAnswer } from '../errors.js';
import { STEP_OWNERS } from './owners.js';
import type { RuleContext } from '../model/context.js';
import type { HttpResponse } from '../model/http.js';
import { isSuccess } from '../model/http.js';
import { newMessageBody, type ParticipantBody } from '../protocol/chat.js';
import { chatSession, configuredChannel, otherAccountId, type ChannelCredentials, type ChatSession } from './chat.js';
import { postToScope } from './chat-conversation.js';

/** The channel's reply window: an hour, as messengers count theirs in hours. */
export const REPLY_WINDOW_S = 3600;

/** How far past the window the late replies are sent. */
const PAST_WINDOW_S = 60;

export type WindowSetting = 'enforced' | 'disabled';

interface WindowedChat {
  readonly scopeId: string;
  readonly conv: string;
  readonly client: ParticipantBody;
}

export interface ReplyWindowChannel {
  readonly channel: ChannelCredentials;
  /** The session on the rule's channel, made again once the clock has moved. */
  s: ChatSession;
  readonly chats: Readonly<Record<WindowSetting, WindowedChat>>;
}

async function connectedChat(s: ChatSession, accountId: string, disabled: boolean): Promise<WindowedChat> {
  const res = await s.connect({ is_time_window_disabled: disabled }, {}, accountId);
  const scopeId = stringAt(res, ['scope_id']);
  if (!isSuccess(res.status) || !scopeId) throw new TargetAnswer(STEP_OWNERS.connect, `connecting the channel with is_time_window_disabled ${disabled} answered ${res.status}${briefBody(res)}`);
  const chat = { scopeId, conv: s.conversationId(), client: s.client('Windowed Client') };
  const wrote = await postToScope(s, scopeId, newMessageBody(s.payload(chat.conv, chat.client)));
  if (!isSuccess(wrote.status)) throw new TargetAnswer(STEP_OWNERS.sendMessage, `the client's message (is_time_window_disabled ${disabled}) answered ${wrote.status}${briefBody(wrote)}`);
  return chat;
}

export async function replyWindowChannel(t: RuleContext): Promise<ReplyWindowChannel> {
  const base = configuredChannel(t);
  const secret = `${randomUUID()}${randomUUID()}`.replace(/-/g, '');
  t.masker.add(secret);
  const made = await t.control.call<{ id: string; bot_id: string }>('POST', '/chat/channels', { secret, name: `Reply window ${t.runId}`, reply_window_s: REPLY_WINDOW_S });
  const channel: ChannelCredentials = { channelId: made.id, secret, accountId: base.accountId, botId: made.bot_id, ...(base.hookApiVersion && { hookApiVersion: base.hookApiVersion }) };
  const s = await chatSession(t, channel);
  const other = await otherAccountId(t, base.accountId);
  const enforced = await connectedChat(s, base.accountId, false);
  const disabled = await connectedChat(s, other, true);
  return { channel, s, chats: { enforced, disabled } };
}

/** The bot replies to the client of the connection with this setting. */
export function botReply(f: ReplyWindowChannel, setting: WindowSetting): Promise<HttpResponse> {
  const { scopeId, conv, client } = f.chats[setting];
  return postToScope(f.s, scopeId, newMessageBody(f.s.payload(conv, f.s.bot(), { receiver: client })));
}

/** The window passes on the target's clock; the session is made again on the moved clock. Answers the clock. */
export async function passReplyWindow(t: RuleContext, f: ReplyWindowChannel): Promise<number> {
  const now = await t.control.advanceClock(REPLY_WINDOW_S + PAST_WINDOW_S);
  f.s = await chatSession(t, f.channel);
  return now;
}

/** Puts the target's clock back to real time (teardown of a rule that moved it). */
export async function resetClock(t: RuleContext): Promise<void> {
  await t.control.call('POST', '/clock/reset');
}
