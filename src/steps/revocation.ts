/**
 * Every credential of one installation (§2.2): an access and refresh token from a code exchange and a long-lived token,
 * in a side account, so that deactivating or disconnecting it (§3.1, §6) leaves the installation other rules use alone.
 */
import type { RuleContext } from '../model/context.js';
import type { TokenPair } from '../protocol/oauth.js';
import { sideAccount, tokensIn, type LongLived } from './lifecycle.js';

export interface InstallationCredentials {
  readonly accountId: number;
  readonly pair: TokenPair;
  readonly longLived: LongLived;
}

const DAY_S = 86_400;

export async function installationCredentials(t: RuleContext): Promise<InstallationCredentials> {
  const accountId = await sideAccount(t);
  const pair = await tokensIn(t, accountId);
  const now = await t.control.now();
  const longLived = await t.control.call<LongLived>('POST', '/long-lived-tokens', { account_id: accountId, expires_at: now + 30 * DAY_S });
  return { accountId, pair, longLived };
}

/** The same, then the administrator deactivates the installation. */
export async function deactivatedCredentials(t: RuleContext): Promise<InstallationCredentials> {
  const creds = await installationCredentials(t);
  await t.control.call('POST', '/deactivate', { account_id: creds.accountId });
  return creds;
}

/** The same, then the user disconnects the integration from the account. */
export async function disconnectedCredentials(t: RuleContext): Promise<InstallationCredentials> {
  const creds = await installationCredentials(t);
  await t.control.call('POST', '/disconnect', { account_id: creds.accountId });
  return creds;
}
