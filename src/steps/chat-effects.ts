/**
 * The account-side effects of incoming messages, read through the control API (docs/control-api.md): the unsorted
 * leads and the notifications one conversation of one scope has caused so far, and the chat hooks of a scope.
 */
import { chatHookCount, HISTORY_WINDOW_MS, type ChatSession } from './chat.js';
import { HOOK_WINDOW_MS } from './lifecycle.js';

export interface EffectCounts {
  readonly leads: number;
  readonly notifications: number;
}

export async function effectCounts(s: ChatSession, conversationId: string): Promise<EffectCounts> {
  const q = `?scope_id=${encodeURIComponent(await s.scope())}&conversation_id=${encodeURIComponent(conversationId)}`;
  const leads = (await s.t.control.call<{ leads: unknown[] }>('GET', `/chat/unsorted${q}`)).leads.length;
  const notifications = (await s.t.control.call<{ notifications: unknown[] }>('GET', `/chat/notifications${q}`)).notifications.length;
  return { leads, notifications };
}

/** A manager writes in the conversation from the account (control API): the outgoing-message hook is due while connected. */
export async function accountWrites(s: ChatSession, conversationId: string, scopeId: string): Promise<void> {
  await s.t.control.call('POST', '/chat/account-message', { scope_id: scopeId, conversation_id: conversationId, text: 'from the account' });
}

/**
 * Hooks of a scope watched over the whole hook window, 30 s (docs/verdicts.md; C19 of the review): returns as soon as one more than `before` shows,
 * else after the window; a rule expecting none thereby waits the window out.
 */
export async function watchChatHooks(s: ChatSession, scopeId: string, before: number): Promise<number> {
  return (await s.t.eventually(() => chatHookCount(s.t, scopeId), { within: HOOK_WINDOW_MS, until: (n) => n > before })).value;
}
