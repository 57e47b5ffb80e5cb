/**
 * The account-side effects of incoming messages, read through the control API (docs/control-api.md): the unsorted
 * leads and the notifications one conversation of one scope has caused so far, and the chat hooks of a scope.
 */
import { chatHookCount, type ChatSession } from './chat.js';
import type { EffectCounts } from '../checks/chat-effects.js';
import { POLICY_EFFECT_WINDOW_MS, POLICY_HOOK_WINDOW_MS } from '../model/readings.js';

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
  return (await s.t.eventually(() => chatHookCount(s.t, scopeId), { within: POLICY_HOOK_WINDOW_MS, until: (n) => n > before })).value;
}

/**
 * The counts over the whole effect window (docs/verdicts.md, `effect-window`, C66): returns as soon as either count
 * exceeds `expected` (a forbidden effect, seen at any time in the window), else the counts at the end of the window,
 * so an expected effect that comes late within it is still counted.
 */
export async function effectCountsOver(s: ChatSession, conversationId: string, expected: EffectCounts): Promise<EffectCounts> {
  const beyond = (c: EffectCounts) => c.leads > expected.leads || c.notifications > expected.notifications;
  return (await s.t.eventually(() => effectCounts(s, conversationId), { within: POLICY_EFFECT_WINDOW_MS, until: beyond })).value;
}

/** A conversation's unsorted leads (control API): how many, and the source and pipeline of the first. */
export interface LeadsSeen {
  readonly count: number;
  readonly source: string | null | undefined;
  readonly pipeline: number | undefined;
}

async function leadsOf(s: ChatSession, conversationId: string): Promise<LeadsSeen> {
  const q = `?scope_id=${encodeURIComponent(await s.scope())}&conversation_id=${encodeURIComponent(conversationId)}`;
  const { leads } = await s.t.control.call<{ leads: { source_external_id: string | null; pipeline_id: number }[] }>('GET', `/chat/unsorted${q}`);
  return { count: leads.length, source: leads[0]?.source_external_id, pipeline: leads[0]?.pipeline_id };
}

/** The conversation's lead once one shows within the effect window (an expected effect may come late), else none. */
export async function leadsOnceSeen(s: ChatSession, conversationId: string): Promise<LeadsSeen> {
  return (await s.t.eventually(() => leadsOf(s, conversationId), { within: POLICY_EFFECT_WINDOW_MS, until: (l) => l.count >= 1 })).value;
}

/**
 * The conversation's leads watched over the whole window for a forbidden change: a second lead, or the first lead's
 * source no longer `source`; returns as soon as one shows, else the leads at the end of the window.
 */
export async function leadsWatched(s: ChatSession, conversationId: string, source: string): Promise<LeadsSeen> {
  return (await s.t.eventually(() => leadsOf(s, conversationId), { within: POLICY_EFFECT_WINDOW_MS, until: (l) => l.count > 1 || l.source !== source })).value;
}

/**
 * Maps a source to a pipeline of the session's account (control API POST /_control/chat/sources): the first incoming
 * message with that source then creates its unsorted lead in that pipeline (§2.6).
 */
export async function mapSourceToPipeline(s: ChatSession, externalId: string, pipelineId: number): Promise<void> {
  await s.t.control.call('POST', '/chat/sources', { account_id: s.channel.accountId, external_id: externalId, pipeline_id: pipelineId });
}
