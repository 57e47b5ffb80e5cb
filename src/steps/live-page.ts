/**
 * What the access-granting page rules must know about the integrations and the user, from the control API when the
 * target has one, else from the settings: the integration's name (INTEGRATION_NAME), a private integration's client
 * id (PRIVATE_CLIENT_ID), and an account where the user is only a member (MEMBER_ACCOUNT).
 */
import { SkipRule } from '../errors.js';
import type { RuleContext } from '../model/context.js';
import { requireNeed } from '../targets/needs.js';
import { integrationName, privateIntegration } from './grant-page.js';

const hasControl = (t: RuleContext) => t.target.capabilities.includes('control');

/** The name the page must show for CLIENT_ID. */
export async function expectedIntegrationName(t: RuleContext): Promise<string> {
  if (hasControl(t)) return integrationName(t);
  requireNeed('integration-name', t.target);
  return t.credentials.integrationName!;
}

/** The client id of a private integration of the account. */
export async function privateClientId(t: RuleContext): Promise<string> {
  if (hasControl(t)) return privateIntegration(t);
  requireNeed('private-integration', t.target);
  return t.credentials.privateClientId!;
}

/** What the page must offer: the user's administrator accounts (known only through a control API) and none of `members`. */
export interface AccountRoles {
  readonly admins?: readonly number[];
  /** Accounts where the user is only a member, as ids or domains. */
  readonly members: readonly string[];
}

interface ControlAccounts {
  readonly accounts: readonly { readonly id: number; readonly admin_role?: string }[];
}

/** The user's roles per account: from the control API, else MEMBER_ACCOUNT (the one account he is only a member of). */
export async function accountRoles(t: RuleContext): Promise<AccountRoles> {
  if (hasControl(t)) {
    const { accounts } = await t.control.call<ControlAccounts>('GET', '/accounts');
    const { memberAccount } = t.credentials;
    const members = [...new Set([...accounts.filter((a) => a.admin_role === 'member').map((a) => String(a.id)), ...(memberAccount ? [memberAccount] : [])])];
    if (members.length === 0) throw new SkipRule('the control API lists no account where the user is only a member (GET /_control/accounts); set MEMBER_ACCOUNT');
    return { admins: accounts.filter((a) => a.admin_role === 'administrator').map((a) => a.id), members };
  }
  requireNeed('member-account', t.target);
  return { members: [t.credentials.memberAccount!] };
}
