/**
 * What a session wrote and the server accepted, so that a read of the history after a write waits for it: §4.3
 * "Response 200 (accepted for processing; the message appears after processing)" lets the history lag its writes
 * (docs/verdicts.md "Asynchronous effects"; the emulator's `chat-history-lags` variation). A rule that reads the
 * history after sending reads it until every message accepted for that conversation is there, each edited one with
 * the text of an edit that may be its last, or the window ends: a lagging edit shows the message as it was, so a count
 * of messages is no sign that the edit was processed (issue 39: chat.model.history read an edit's old text).
 */
import { Precondition, TargetAnswer } from '../errors.js';
import type { HistoryItem } from '../protocol/answers.js';
import type { MessagePayload } from '../protocol/chat.js';

/** An accepted edit of a message's text: when its request left and when its answer came (ms, this machine's clock). */
interface TextEdit {
  readonly text: string;
  readonly sentAt: number;
  readonly answeredAt: number;
}

export class WrittenMessages {
  readonly #byConversation = new Map<string, Set<string>>();
  /** The integration-side msgid of each chat-interface id the answers gave, to follow an edit that rebinds it. */
  readonly #msgidOf = new Map<string, string>();
  /** The accepted text edits of each message, by conversation and integration-side msgid. */
  readonly #edits = new Map<string, Map<string, TextEdit[]>>();

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
    // A new message under a msgid already edited (a repeat) may or may not replace it: no text is awaited for it any more.
    this.#edits.get(p.conversation_id)?.delete(p.msgid);
  }

  /**
   * An accepted edit (§4.3 rule 4) of a message this session wrote in the conversation, named by its chat-interface
   * `id` or its `msgid` (both: rebound to the new msgid). Its text, when it has one, is what the history shows once the
   * edit is processed; an edit of a message this session did not write in that conversation (another chat's, another
   * scope's, an unknown one) is awaited for nothing.
   */
  edited(p: MessagePayload, at: { readonly sentAt: number; readonly answeredAt: number }): void {
    const conv = p.conversation_id;
    if (typeof conv !== 'string') return;
    const before = typeof p.id === 'string' ? this.#msgidOf.get(p.id) : undefined;
    this.rebound(conv, p.id, p.msgid);
    const named = (typeof p.id === 'string' ? this.#msgidOf.get(p.id) : undefined) ?? p.msgid;
    if (typeof named !== 'string' || !this.#byConversation.get(conv)?.has(named)) return;
    const byMsgid = this.#edits.get(conv) ?? new Map<string, TextEdit[]>();
    this.#edits.set(conv, byMsgid);
    // Rebound to a new msgid, the message is shown under it: its earlier edits move along.
    if (before !== undefined && before !== named && byMsgid.has(before)) {
      byMsgid.set(named, byMsgid.get(before)!);
      byMsgid.delete(before);
    }
    const text = (p.message as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string') byMsgid.set(named, [...(byMsgid.get(named) ?? []), { text, ...at }]);
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

  /**
   * Whether `items` show every message accepted for the conversation (by its integration-side msgid), each edited one
   * with the text of one of the edits that may have been applied last: an edit whose answer came before another edit
   * of the message was sent is overtaken by it; edits sent at once (a race) may end in any order.
   */
  allShown(conversationId: string, items: readonly HistoryItem[]): boolean {
    const ids = this.#byConversation.get(conversationId);
    if (!ids || ids.size === 0) return true;
    const shown = new Set(items.map((i) => i.message?.client_id));
    for (const id of ids) if (!shown.has(id)) return false;
    for (const [msgid, edits] of this.#edits.get(conversationId) ?? []) {
      const last = edits.filter((e) => !edits.some((later) => later.sentAt > e.answeredAt)).map((e) => e.text);
      if (!items.some((i) => i.message?.client_id === msgid && last.some((text) => sameText(i.message?.text, text)))) return false;
    }
    return true;
  }
}

/**
 * The history shows `text`: the same characters in another Unicode normalisation form are the same text (the
 * `chat-text-nfc` variation), and an empty text may be left out ("Empty values may be omitted", §4.3 history).
 */
function sameText(shown: unknown, text: string): boolean {
  if (shown === undefined || shown === null) return text === '';
  return typeof shown === 'string' && shown.normalize('NFC') === text.normalize('NFC');
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
