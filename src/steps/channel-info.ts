/**
 * What the control API knows of a channel that the chat interface never shows: its registered name, the default of
 * a connection's title (§2.4).
 */
import { Precondition } from '../errors.js';
import type { RuleContext } from '../model/context.js';

interface ChatInfo {
  readonly channels?: readonly { readonly id: string; readonly name?: unknown }[];
}

/** The registered name of a channel, read through the control API (GET /_control/chat). */
export async function channelName(t: RuleContext, channelId: string): Promise<string> {
  const info = await t.control.call<ChatInfo>('GET', '/chat');
  const name = info.channels?.find((c) => c.id === channelId)?.name;
  if (typeof name !== 'string') throw new Precondition(`the control API names no channel ${channelId} with a name (GET /_control/chat)`);
  return name;
}
