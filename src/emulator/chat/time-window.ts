/**
 * §2.4: a channel may have a reply time window: an outgoing reply (from an account user or the bot) is refused once
 * that many seconds have passed, on the emulator clock, since the client's last incoming message of the chat;
 * `is_time_window_disabled: true` on the connection lifts it for that account. A chat where the client has not written
 * yet (a write-first chat) has nothing to count from and is not limited. The spec does not say how a refusal looks:
 * the emulator answers 400 with the error type `TIME_WINDOW_EXPIRED`.
 */
import type { EmulatorContext } from '../context.js';
import { ChatError } from './errors.js';
import type { Chat, Connection } from './state.js';

export function checkReplyWindow(ctx: EmulatorContext, conn: Connection, chat: Chat | undefined): void {
  const window = conn.channel.replyWindowS;
  const since = chat?.lastIncomingAt;
  if (window === undefined || since === undefined || ctx.faults.isOn('chat-time-window-unenforced')) return;
  if (conn.isTimeWindowDisabled && !ctx.faults.isOn('chat-time-window-disable-ignored')) return;
  const elapsed = ctx.clock.nowSeconds() - since;
  if (elapsed > window) {
    throw new ChatError(400, 'TIME_WINDOW_EXPIRED', `the channel's reply window (${window} s after the client's last message) has passed: the client wrote ${elapsed} s ago`);
  }
}

/** The client wrote: the reply window starts again. */
export function clientWrote(ctx: EmulatorContext, chat: Chat): void {
  chat.lastIncomingAt = ctx.clock.nowSeconds();
}
