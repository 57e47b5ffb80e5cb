/**
 * The account the target says it is (issue 38 §1): what GET /api/v4/account at BASE_URL answers with the run's access
 * token, and with each other bearer the settings configure (LONG_LIVED_TOKEN, RESTRICTED_ACCESS_TOKEN). report.json
 * records it in `target.accounts`, so that a certificate binds not only the URLs but whose account they served: a
 * certificate of a run against one account cannot be passed off for another behind the same address.
 *
 * Read once, before any rule, as the run's own work (not a rule's: no verdict, its requests are the run's set-up), and
 * only with bearers a read cannot cost anyone anything: the control API's fresh pair, a setting, the token store's
 * refresh, or the run's one pair from the access-granting page (each once per run, shared with the rules: a run whose
 * token comes from the page drives it for its rules anyway, and a certificate of it must say whose account it was).
 * A bearer only the operator could give is not asked for: no one is prompted for the run's set-up.
 */
import type { TargetAccount } from '../model/result.js';
import type { Rule } from '../model/rule.js';
import { outcomeOf } from '../model/outcome.js';
import type { RuleContext } from '../model/context.js';
import type { NeedSource } from '../model/needs.js';
import { credentialKindOf, type CredentialKind } from '../needs/credentials.js';
import { SupplyPlan } from '../needs/plan.js';
import { inResourceScope } from '../rule-scope.js';
import { accountIdentity } from '../targets/account-identity.js';
import { runRule, type RuleEnvironment } from './run-rule.js';

/** Sources of the run's access token a read may use: none of them asks the operator. */
const QUIET_SOURCES: readonly NeedSource[] = ['control', 'settings', 'token-store', 'browser'];

/** The bearers to read the account with, each with its kind: the run's access token first. */
function bearersOf(t: RuleContext, plan: SupplyPlan): [CredentialKind, () => Promise<string>][] {
  const supply = plan.supplyOf('access-token', { id: '' });
  const source = 'source' in supply && QUIET_SOURCES.includes(supply.source) ? supply.source : undefined;
  const c = t.credentials;
  return [
    ...(source ? [[credentialKindOf('access-token', source)!, () => t.need('access-token')] as [CredentialKind, () => Promise<string>]] : []),
    // The run's token is LONG_LIVED_TOKEN itself when the settings supply it: read once.
    ...(c.longLivedToken && source !== 'settings' ? [['long-lived', async () => c.longLivedToken!] as [CredentialKind, () => Promise<string>]] : []),
    ...(c.restrictedUser ? [['restricted-user', async () => c.restrictedUser!.token] as [CredentialKind, () => Promise<string>]] : []),
  ];
}

/** The account one bearer reads: its id and subdomain, or why it could not be read. */
async function readAccount(t: RuleContext, credential: CredentialKind, bearer: () => Promise<string>): Promise<TargetAccount> {
  const base = { base_url: t.target.baseUrl, credential };
  try {
    return { ...base, ...(await accountIdentity(t.target, await bearer(), (req) => t.send(req))) };
  } catch (err) {
    return { ...base, error: (err as Error).message.split('\n')[0]! };
  }
}

/** The accounts the target says it is, one per bearer (empty when the run has none it may read with). */
export async function readTargetAccounts(env: RuleEnvironment): Promise<TargetAccount[]> {
  const plan = env.plan ?? new SupplyPlan(env.target);
  const accounts: TargetAccount[] = [];
  // Run as a rule is (its exchanges recorded and masked, its needs supplied as the plan says), but for no verdict.
  const reader: Rule = {
    id: 'conformance.target-account', section: '4.2', level: 'info', requires: [], kind: 'closure',
    title: 'the account the target says it is (GET /api/v4/account with each bearer of the run)',
    run: async (t) => {
      for (const [credential, bearer] of bearersOf(t, plan)) accounts.push(await readAccount(t, credential, bearer));
      return outcomeOf([]);
    },
  };
  await inResourceScope('target-account', () => runRule(reader, env));
  return accounts;
}
