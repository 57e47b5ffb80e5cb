/**
 * What the rules of §3.2 share: fixtures, case tables and the makers of rule families.
 */
import { ChatSession, isSuccess, type ParticipantBody, type RuleContext, spareChannel, stringAt } from '../kit.js';
import { STEP_OWNERS, TargetAnswer } from '../kit.js';

/** A conversation of the rule's own on its channel. */
export interface OwnConversation {
  readonly s: ChatSession;
  readonly scope: string;
  readonly conv: string;
  readonly client: ParticipantBody;
  /** Hooks seen while connected, for the step after the disconnect. */
  hooksBefore: number;
}

export async function ownConversation(t: RuleContext): Promise<OwnConversation> {
  const s = await spareChannel(t);
  return { s, scope: await s.scope(), conv: s.conversationId(), client: s.client(), hooksBefore: 0 };
}

/** Two accounts' sessions on the configured channel and a message in A's conversation. */
export interface TwoAccounts {
  readonly a: ChatSession;
  readonly b: ChatSession;
  readonly scopes: readonly [string, string];
  readonly conv: string;
  readonly client: ParticipantBody;
  readonly inA: string;
  /** The chat-interface id of A's message (new_message.msgid; "" when the answer gave none). */
  readonly inAId: string;
  /** The chat-interface id of A's chat (create chat's id; "" when none was answered). */
  readonly chatA: string;
  /** B's message in the same conversation_id, which A's history must not show. */
  sentInB: string;
}

/**
 * Two scopes (two accounts of one channel, or two channels of one account) and a chat of the first with one message,
 * which the second must never reach. Nothing is written when both answer one scope_id (the rule's first step fails it).
 */
export async function twoScopes(a: ChatSession, b: ChatSession): Promise<TwoAccounts> {
  const scopes = [await a.scope(), await b.scope()] as const;
  const conv = a.conversationId();
  const client = a.client();
  const separate = scopes[0] !== scopes[1];
  const made = separate ? stringAt(await a.createChat(conv, client), ['id']) ?? '' : '';
  const sent = separate ? await a.mustSend(a.payload(conv, client)) : { msgid: '', id: '' };
  return { a, b, scopes, conv, client, inA: sent.msgid, inAId: sent.id, chatA: made, sentInB: '' };
}

/** Disconnects the channel as a step the rule needs (the lifecycle rule judges the disconnect itself). */
export async function mustDisconnect(s: ChatSession): Promise<void> {
  const off = await s.disconnect();
  if (!isSuccess(off.status)) throw new TargetAnswer(STEP_OWNERS.disconnect, `disconnect answered ${off.status}`);
}

export interface TwoAccountsConversation {
  readonly a: ChatSession;
  readonly b: ChatSession;
  readonly conversationId: string;
}

export interface Disconnected {
  readonly s: ChatSession;
  readonly scopeId: string;
  readonly conv: string;
  /** Hooks of the scope while connected, after one account message. */
  readonly before: number;
}
