/**
 * The account-side effects of incoming messages, read through the control API (docs/control-api.md): the unsorted
 * leads and the notifications one conversation of one scope has caused so far, and the chat hooks of a scope.
 */
import type { ChatSession } from './chat.js';

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
