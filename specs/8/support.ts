/**
 * What the rules of §8 share: fixtures, case tables and the makers of rule families.
 */
import { type ChatSession, type RuleContext } from '../kit.js';
import { type FreshConversation, freshConversation } from '../fixtures/chat.js';

/** A client's message in a conversation (`here`, the one the rule writes to) and in another one (`there`). */
export interface TwoConversations extends FreshConversation {
  readonly here: string;
  readonly there: string;
}

export async function twoConversations(t: RuleContext): Promise<TwoConversations> {
  const { s, conv, client } = await freshConversation(t);
  const here = (await s.mustSend(s.payload(conv, client))).msgid;
  const there = (await s.mustSend(s.payload(s.conversationId(), client))).msgid;
  return { s, conv, client, here, there };
}

/** A conversation holding `n` messages, sent thirteen at a time, once the history shows them all. */
export interface FullChat {
  readonly s: ChatSession;
  readonly conv: string;
}

export async function fullChat(t: RuleContext, n: number): Promise<FullChat> {
  const { s, conv, client } = await freshConversation(t);
  const base = Date.now() - 100_000;
  for (let batch = 0; batch < n; batch += 13) {
    await Promise.all(Array.from({ length: Math.min(13, n - batch) }, (_, i) => s.mustSend(s.payload(conv, client, {}, base + (batch + i) * 10))));
  }
  await s.allHistory(conv, (i) => i.length >= n);
  return { s, conv };
}
