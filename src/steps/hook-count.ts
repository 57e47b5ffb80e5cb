/**
 * After the disconnect hook of an account arrived, any further hook for that account within the hook window: one
 * disconnect must send one hook (§6).
 */
import type { RuleContext } from '../model/context.js';
import type { ReceivedHook } from '../model/context.js';
import { disconnectAndReceiveOwn } from './lifecycle.js';
import { POLICY_HOOK_WINDOW_MS } from '../model/readings.js';

export interface HookCount {
  readonly accountId: number;
  readonly first: ReceivedHook | undefined;
  /** A second hook for the same account (or naming none) within the window, when one came. */
  readonly again: ReceivedHook | undefined;
}

export async function disconnectAndCount(t: RuleContext): Promise<HookCount> {
  // The side account is the one every disconnect rule uses: hooks of earlier disconnects that no rule claimed would
  // be counted as this disconnect's second hook, so they are claimed first.
  const { hook, accountId } = await disconnectAndReceiveOwn(t);
  const again = hook ? await t.waitForHook((h) => h.query.get('account_id') === String(accountId) || !h.query.has('account_id'), { within: POLICY_HOOK_WINDOW_MS }) : undefined;
  return { accountId, first: hook, again };
}
