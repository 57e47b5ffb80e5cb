/**
 * What the access-granting page rules must know about the integrations and the user (the `integration-name`,
 * `private-integration` and `member-account` needs, src/needs/catalogue.ts), from the control API when the target has
 * one, else from the settings: the integration's name (INTEGRATION_NAME), a private integration's client id
 * (PRIVATE_CLIENT_ID), and an account where the user is only a member (MEMBER_ACCOUNT).
 */
import type { RuleContext } from '../model/context.js';

/** The name the page must show for CLIENT_ID. */
export async function expectedIntegrationName(t: RuleContext): Promise<string> {
  return t.need('integration-name');
}

/** The client id of a private integration of the account. */
export async function privateClientId(t: RuleContext): Promise<string> {
  return t.need('private-integration');
}

/** What the page must offer: the user's administrator accounts (known only through a control API) and none of `members`. */
export interface AccountRoles {
  readonly admins?: readonly number[];
  /** Accounts where the user is only a member, as ids or domains. */
  readonly members: readonly string[];
}

/** The user's roles per account: from the control API, else MEMBER_ACCOUNT (the one account he is only a member of). */
export async function accountRoles(t: RuleContext): Promise<AccountRoles> {
  return t.need('member-account');
}
