/**
 * The control API supplies every need it is listed for (docs/design.md §5): it acts as the user on the page, mints
 * codes and tokens, registers channels, creates records, moves the clock, and reads the target's own state.
 */
import { Precondition, SkipRule } from '../../errors.js';
import type { RuleContext } from '../../model/context.js';
import type { ClientRegistration } from '../../model/target.js';
import { channelName } from '../../steps/channel-info.js';
import { configuredChannel, otherAccountId, ownChannel } from '../../steps/chat.js';
import { integrationName, privateIntegration } from '../../steps/grant-page.js';
import { createLongLived, withClockAdvanced } from '../../steps/lifecycle.js';
import { exchange, obtainTokens, tokensOf } from '../../steps/oauth.js';
import { codeGrant } from '../../protocol/oauth.js';
import { createNamedRecord, foreignIds } from '../../steps/other-account.js';
import type { TokenPair } from '../../protocol/answers.js';
import type { CodeSource, ConsentDesk, OperatorDesk, RestrictedToken } from '../catalogue.js';
import { codeOf } from './codes.js';
import { operatorDesk } from './operator.js';
import type { Provider } from './types.js';

interface ControlAccounts {
  readonly accounts: readonly { readonly id: number; readonly admin_role?: string; readonly name?: string; readonly subdomain?: string; readonly base_url?: unknown }[];
}

const codes = (t: RuleContext): CodeSource => ({
  code: async (clientId) => (clientId ? codeOf((await t.control.consent({ decision: 'allow', clientId })).location) : t.control.freshCode()),
});

const consent = (t: RuleContext): ConsentDesk => ({
  location: async (request) => (await t.control.consent({
    decision: request.decision ?? 'allow',
    ...(request.state === undefined ? {} : { state: request.state }),
    ...(request.accountId === undefined ? {} : { account_id: request.accountId }),
    ...(request.clientId === undefined ? {} : { clientId: request.clientId }),
  })).location,
  accounts: async () => {
    const { accounts } = await t.control.call<ControlAccounts>('GET', '/accounts');
    return accounts.map((a) => ({ id: a.id, label: [a.name, a.subdomain && `(${a.subdomain})`].filter(Boolean).join(' ') || String(a.id) }));
  },
});

/** The act through the control API when the step has one, else by the operator (a token the kit did not make). */
const operator = (t: RuleContext): OperatorDesk => ({
  act: async (step) => (step.control ? step.control() : operatorDesk(t).act(step)),
  value: async (step) => (step.control ? step.control() : operatorDesk(t).value(step)),
});

/** The control API's integration other than CLIENT_ID, its id and Redirect URI as listed, and a new secret key. */
async function newOtherSecret(t: RuleContext): Promise<ClientRegistration> {
  const { integrations } = await t.control.call<{ integrations: { client_id: string; redirect_uri: string }[] }>('GET', '/integrations');
  const other = integrations.find((i) => i.client_id !== t.credentials.clientId);
  if (!other) throw new Precondition('the control API lists no integration other than CLIENT_ID');
  const { client_secret } = await t.control.call<{ client_secret: string }>('POST', '/secret', { client_id: other.client_id });
  return { clientId: other.client_id, clientSecret: client_secret, redirectUri: other.redirect_uri };
}

/** A token pair from the consent of the control API's user restricted to his own deals, exchanged as a client would. */
async function restrictedPair(t: RuleContext): Promise<{ readonly pair: TokenPair; readonly userId: number }> {
  const { users } = await t.control.call<{ users?: readonly { id?: unknown; deals?: unknown }[] }>('GET', '/users');
  const user = users?.find((u) => u.deals === 'own' && typeof u.id === 'number');
  if (!user) throw new SkipRule('the control API lists no user who may see only his own deals (GET /_control/users); set RESTRICTED_ACCESS_TOKEN and RESTRICTED_USER_ID');
  const userId = user.id as number;
  const code = codeOf((await t.control.consent({ decision: 'allow', user_id: userId })).location);
  const pair = tokensOf(await exchange(t, codeGrant(t.target, code)), "the code exchange of the restricted user's consent");
  t.masker.add(pair.access_token);
  t.masker.add(pair.refresh_token);
  return { pair, userId };
}

async function restrictedToken(t: RuleContext): Promise<RestrictedToken> {
  const { pair, userId } = await restrictedPair(t);
  return { token: pair.access_token, userId };
}

export const controlProvider: Provider = {
  source: 'control',
  offers: {
    'fresh-code': codes,
    'one-code': codes,
    consent,
    login: async (t) => {
      const creds = await t.control.call<{ login?: string; password?: string }>('GET', '/login');
      if (!creds?.login || !creds.password) throw new Precondition('the control API gave no login for the access-granting page');
      t.masker.add(creds.password);
      return { login: creds.login, password: creds.password };
    },
    'access-token': async (t) => (await obtainTokens(t)).access_token,
    'oauth-access-token': async (t) => (await obtainTokens(t)).access_token,
    'long-lived-token': (t) => async (seconds) => {
      const created = await createLongLived(t, seconds);
      return { token: created.long_lived_token, created };
    },
    'refresh-token': async (t) => (await obtainTokens(t)).refresh_token,
    // Once per run: rules running side by side that each set a new secret key would invalidate each other's.
    'second-integration': async (t) => (await t.resource('other-integration', async () => ({ credentials: await newOtherSecret(t), close: async () => {} }))).credentials,
    'private-integration': (t) => privateIntegration(t),
    'integration-name': (t) => integrationName(t),
    'channel-name': (t) => channelName(t, configuredChannel(t).channelId),
    'v1-only-channel': (t) => ownChannel(t, { hookVersions: ['v1'] }),
    'non-ascii-record': (t) => (name) => createNamedRecord(t, 'leads', name),
    'foreign-records': (t) => (list) => foreignIds(t, list),
    // Once per run: every rights rule reads with the same user's token, as a client of his would.
    'restricted-refresh-token': async (t) => {
      const { pair, userId } = await restrictedPair(t);
      return { refreshToken: pair.refresh_token, userId };
    },
    'restricted-token': async (t) => (await t.resource('restricted-token', async () => ({ granted: await restrictedToken(t), close: async () => {} }))).granted,
    'second-channel': (t) => ownChannel(t),
    // Once per run: a channel registered for its secret alone, never connected, so every rule may sign with it at once.
    'other-channel-secret': async (t) => (await t.resource('other-channel-secret', async () => ({ secret: (await ownChannel(t)).channel.secret, close: async () => {} }))).secret,
    'second-account': (t) => (mine) => otherAccountId(t, mine),
    /** The first account of the control API other than `ownId` that names its own address. */
    'second-base-url': (t) => async (ownId) => {
      const { accounts } = await t.control.call<ControlAccounts>('GET', '/accounts');
      const other = accounts.find((a) => a.id !== ownId && typeof a.base_url === 'string');
      if (typeof other?.base_url !== 'string') throw new SkipRule('the control API names no second account\'s address (base_url in GET /_control/accounts); set BASE_URL_2');
      return other.base_url.replace(/\/+$/, '');
    },
    'member-account': async (t) => {
      const { accounts } = await t.control.call<ControlAccounts>('GET', '/accounts');
      const { memberAccount } = t.credentials;
      const members = [...new Set([...accounts.filter((a) => a.admin_role === 'member').map((a) => String(a.id)), ...(memberAccount ? [memberAccount] : [])])];
      if (members.length === 0) throw new SkipRule('the control API lists no account where the user is only a member (GET /_control/accounts); set MEMBER_ACCOUNT');
      return { admins: accounts.filter((a) => a.admin_role === 'administrator').map((a) => a.id), members };
    },
    operator,
    clock: (t) => ({
      after: (e, act) => withClockAdvanced(t, async (advance) => {
        await advance(e.seconds);
        return act();
      }),
    }),
    'ground-truth': (t) => t.control,
    counters: (t) => t.control,
  },
};
