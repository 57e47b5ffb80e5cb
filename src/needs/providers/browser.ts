/**
 * The access-granting page driven in the run's Chromium as the account administrator (ADMIN_LOGIN, ADMIN_PASSWORD;
 * src/steps/live-grant.ts): codes and consent from Allow and Deny, the accounts it offers, and one token pair per run
 * for the account API rules, for a target without a control API.
 */
import type { RuleContext, RunResource } from '../../model/context.js';
import type { TokenPair } from '../../protocol/answers.js';
import { grantDesk } from '../../steps/live-grant.js';
import { obtainTokens } from '../../steps/oauth.js';
import type { CodeSource, ConsentDesk } from '../catalogue.js';
import { codeOf } from './codes.js';
import type { Provider } from './types.js';

/** The Redirect URI the page sends the browser to for `clientId`: the second integration's own, else CLIENT_ID's. */
function redirectUriOf(t: RuleContext, clientId: string | undefined): string | undefined {
  const second = t.credentials.secondClient;
  return clientId !== undefined && clientId === second?.clientId ? second.redirectUri : undefined;
}

const consent = (t: RuleContext): ConsentDesk => ({
  location: async (request) => (await grantDesk(t, redirectUriOf(t, request.clientId))).grant({ ...request, decision: request.decision ?? 'allow' }),
  accounts: async (clientId) => (await grantDesk(t)).accounts(clientId),
});

const codes = (t: RuleContext): CodeSource => ({
  code: async (clientId) => {
    const code = codeOf(await consent(t).location({ decision: 'allow', ...(clientId ? { clientId } : {}) }));
    t.masker.add(code);
    return code;
  },
});

class RunPair implements RunResource {
  constructor(readonly pair: TokenPair) {}
  async close(): Promise<void> {}
}

/** One token pair from the page for the whole run: the account API rules share it (a grant costs a browser page). */
async function runTokenPair(t: RuleContext): Promise<TokenPair> {
  return (await t.resource('live-token-pair', async () => new RunPair(await obtainTokens(t)))).pair;
}

export const browserProvider: Provider = {
  source: 'browser',
  offers: {
    'fresh-code': codes,
    'one-code': codes,
    consent,
    login: (t) => {
      const { adminLogin, adminPassword } = t.credentials;
      t.masker.add(adminPassword);
      return { login: adminLogin!, password: adminPassword! };
    },
    'access-token': async (t) => (await runTokenPair(t)).access_token,
    'oauth-access-token': async (t) => (await runTokenPair(t)).access_token,
    'refresh-token': async (t) => (await obtainTokens(t)).refresh_token,
  },
};
