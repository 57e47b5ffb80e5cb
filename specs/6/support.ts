/**
 * What the rules of §6 share: fixtures, case tables and the makers of rule families.
 */
import { type ReceivedHook } from '../kit.js';

export interface Disconnect {
  readonly hook: ReceivedHook | undefined;
  readonly accountId: number;
}

export const READING_SETUP = 'A channel of the rule\'s own is connected to the configured account with hook_api_version v1 and to a second account with v2, both before either message; a manager then writes in a chat of each (POST /_control/chat/account-message) and the hooks are read from GET /_control/chat/hooks, waited for up to the hook window.';
