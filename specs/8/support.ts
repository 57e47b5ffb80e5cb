/**
 * What the rules of §8 share: fixtures, case tables and the makers of rule families.
 */
import { type ChatSession, type HistoryItem, historyItemsOf, type RuleContext } from '../kit.js';
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
  /** The msgids written, oldest message time first. */
  readonly written: readonly string[];
  /** The pages of 50 the rule read (offset 0, 50, …), each as answered, for the comparison with pages of another size. */
  pagesOf50?: readonly (readonly HistoryItem[])[];
}

export async function fullChat(t: RuleContext, n: number): Promise<FullChat> {
  const { s, conv, client } = await freshConversation(t);
  const base = Date.now() - 100_000;
  const written: string[] = [];
  for (let batch = 0; batch < n; batch += 13) {
    const payloads = Array.from({ length: Math.min(13, n - batch) }, (_, i) => s.payload(conv, client, {}, base + (batch + i) * 10));
    written.push(...payloads.map((p) => p.msgid));
    await Promise.all(payloads.map((p) => s.mustSend(p)));
  }
  await s.allHistory(conv, (i) => i.length >= n);
  return { s, conv, written };
}

/**
 * The history read page by page with `limit`, from offset 0 on, each page as answered: one request per page, the
 * offset moved by the page's length, ending at a short or empty page or after `pages` (a server that ignores offset
 * costs no more than that).
 */
export async function pagesOf(f: FullChat, limit: number, pages: number): Promise<HistoryItem[][]> {
  const out: HistoryItem[][] = [];
  let offset = 0;
  for (let i = 0; i < pages; i += 1) {
    const res = await f.s.history(f.conv, { offset, limit });
    const page = res.status === 200 ? historyItemsOf(res) : [];
    out.push(page);
    if (page.length < limit) break;
    offset += page.length;
  }
  return out;
}
