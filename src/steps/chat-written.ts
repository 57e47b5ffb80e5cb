/**
 * What a session wrote and the server accepted, so that a read of the history after a write waits for it: §4.3
 * "Response 200 (accepted for processing; the message appears after processing)" lets the history lag its writes
 * (docs/verdicts.md "Asynchronous effects"; the emulator's `chat-history-lags` variation). A rule that reads the
 * history after sending reads it until every message accepted for that conversation is there, or the window ends.
 */
import { Precondition, TargetAnswer } from '../errors.js';
import type { HistoryItem } from '../protocol/answers.js';
import type { MessagePayload } from '../protocol/chat.js';

export class WrittenMessages {
  readonly #byConversation = new Map<string, Set<string>>();
  /** The integration-side msgid of each chat-interface id the answers gave, to follow an edit that rebinds it. */
  readonly #msgidOf = new Map<string, string>();

  /**
   * A new message the server accepted, with the chat-interface id its answer gave (if any). Comments (§2.10,
   * `message.post`) are not in the chat's history, so not awaited.
   */
  accepted(p: MessagePayload, id: unknown): void {
    if (typeof p.conversation_id !== 'string' || typeof p.msgid !== 'string') return;
    const post = (p.message as { post?: unknown } | undefined)?.post;
    if (post !== undefined && post !== null) return;
    const ids = this.#byConversation.get(p.conversation_id) ?? new Set<string>();
    ids.add(p.msgid);
    this.#byConversation.set(p.conversation_id, ids);
    if (typeof id === 'string' && id !== '') this.#msgidOf.set(id, p.msgid);
  }

  /** An accepted edit naming the message by its chat-interface id and a new msgid (§4.3 rule 4 rebinds it). */
  rebound(conversationId: unknown, id: unknown, msgid: unknown): void {
    if (typeof conversationId !== 'string' || typeof id !== 'string' || typeof msgid !== 'string') return;
    const old = this.#msgidOf.get(id);
    const ids = this.#byConversation.get(conversationId);
    if (old === undefined || !ids?.has(old)) return;
    ids.delete(old);
    ids.add(msgid);
    this.#msgidOf.set(id, msgid);
  }

  /** Whether `items` show every message accepted for the conversation (by its integration-side msgid). */
  allShown(conversationId: string, items: readonly HistoryItem[]): boolean {
    const ids = this.#byConversation.get(conversationId);
    if (!ids || ids.size === 0) return true;
    const shown = new Set(items.map((i) => i.message?.client_id));
    for (const id of ids) if (!shown.has(id)) return false;
    return true;
  }
}

/**
 * Waits until the history shows what was accepted in the conversation, before a rule reads one page of it as its
 * observation. A history that cannot be read here (a refusal) is left to that observation to judge.
 */
export async function untilShown(s: { allHistory(conversationId: string): Promise<unknown> }, conversationId: string): Promise<void> {
  try {
    await s.allHistory(conversationId);
  } catch (err) {
    if (!(err instanceof Precondition) && !(err instanceof TargetAnswer)) throw err;
  }
}
