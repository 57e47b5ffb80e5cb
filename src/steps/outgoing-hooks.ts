/**
 * Outgoing-message hooks per hook version (§2.4, §6, §9): a channel of the rule's own connected to two accounts, one
 * choosing hook_api_version v1 and the other v2; a manager writes in a chat of each (control API), and the control
 * API's hooks log tells which version each hook went with and what it carried.
 */
import type { OutgoingHook, VersionedHooks } from '../checks/outgoing-hook.js';
import { Precondition, TargetAnswer } from '../errors.js';
import { STEP_OWNERS } from './owners.js';
import type { RuleContext } from '../model/context.js';
import { chatSession, type ChatSession } from './chat.js';
import { secondAccountId, spareChannel } from './live-chat.js';
import { isSuccess } from '../model/http.js';
import { POLICY_HOOK_WINDOW_MS } from '../model/readings.js';

export type HookVersion = 'v1' | 'v2';

/** A manager's message on one connection: where it was written and the id the account gave it. */
export interface ManagerMessage {
  readonly scopeId: string;
  readonly conversationId: string;
  readonly msgid: string;
}

/** The rule's channel on two accounts, the first connected with v1 and the second with v2, a manager message on each. */
export interface TwoConnections {
  readonly first: ChatSession;
  readonly second: ChatSession;
  readonly v1: ManagerMessage;
  readonly v2: ManagerMessage;
}

/**
 * Connects the rule's channel to the configured account with v1 and to a second account with v2, both before either
 * message (a target that keeps one version per channel then shows the later one on both), and has a manager write in
 * a fresh chat of each.
 */
export async function managerMessagesPerVersion(t: RuleContext): Promise<TwoConnections> {
  const first = await spareChannel(t);
  const second = await chatSession(t, { ...first.channel, accountId: await secondAccountId(t, first.channel.accountId) });
  await first.connectWith({ hook_api_version: 'v1' });
  await second.connectWith({ hook_api_version: 'v2' });
  return { first, second, v1: await managerWrites(first, await clientOpensChat(first)), v2: await managerWrites(second, await clientOpensChat(second)) };
}

/**
 * §3.2 and §2.4: the second account's connection is disconnected and connected again without hook_api_version (the
 * default, v1), and a manager writes in its chat again. Disconnecting first keeps to the spec's states: what a connect
 * of a connected channel does to its version is not stated.
 */
export async function reconnectedWithDefault(f: TwoConnections): Promise<ManagerMessage> {
  const off = await f.second.disconnect();
  if (!isSuccess(off.status)) throw new TargetAnswer(STEP_OWNERS.disconnect, `disconnecting the v2 connection answered ${off.status}`);
  // The kit's usual connect body names v2: the field is left out here (undefined is not serialized).
  await f.second.connectWith({ hook_api_version: undefined });
  return managerWrites(f.second, f.v2.conversationId);
}

/** A client opens a chat (a chat without messages is not shown in the account): its conversation id. */
async function clientOpensChat(s: ChatSession): Promise<string> {
  const conv = s.conversationId();
  await s.mustSend(s.payload(conv, s.client()));
  return conv;
}

/** A manager writes in the chat from the account (control API). */
async function managerWrites(s: ChatSession, conversationId: string): Promise<ManagerMessage> {
  const scopeId = await s.scope();
  const { msgid } = await s.t.control.call<{ msgid?: unknown }>('POST', '/chat/account-message', { scope_id: scopeId, conversation_id: conversationId, text: 'from the account' });
  if (typeof msgid !== 'string') throw new Precondition('the control API answered the manager\'s message without a msgid');
  return { scopeId, conversationId, msgid };
}

/**
 * The hooks a manager's message sent, waited for up to the hook window (docs/verdicts.md), with the version its
 * connection chose.
 */
export async function hooksOf(t: RuleContext, message: ManagerMessage, version: HookVersion): Promise<VersionedHooks> {
  const read = async (): Promise<readonly OutgoingHook[]> => {
    const log = await t.control.call<{ hooks?: readonly OutgoingHook[] }>('GET', `/chat/hooks?scope_id=${encodeURIComponent(message.scopeId)}`);
    return (log.hooks ?? []).filter((h) => h.msgid === message.msgid);
  };
  const { value } = await t.eventually(read, { within: POLICY_HOOK_WINDOW_MS, until: (hooks) => hooks.length > 0 });
  return { version, hooks: value };
}
