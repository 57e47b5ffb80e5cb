/**
 * §4.1 Exchange code or refresh token: a credential is bound to the integration it was issued to (RFC 6749 §4.1.3,
 * §6, §10.2) and to its own grant: a code or refresh token of one integration presented by another, or one kind of
 * credential sent where another belongs, is refused. The second integration is the one the control API lists beside
 * CLIENT_ID, else CLIENT_ID_2 of the settings (src/steps/integrations.ts).
 */
import {
  accountRequest, asClient, type ClientCredentials, codeFor, codeGrant, defineSpec, exchange, exchangeRule, type ExchangeAtAddress, foreignAddress, freshCode, isSuccess, jsonObjectBody, obtainTokens, otherIntegration, refreshGrant, type RuleContext, scenarioRule, status, step, tokenForItsAddress, tokenPairOf, tokenRequest, type TokenPair, tokensFor,
} from './kit.js';

const refusal = [status(400), jsonObjectBody] as const;

interface Other {
  readonly other: ClientCredentials;
}
const withOther = async (t: RuleContext): Promise<Other> => ({ other: await otherIntegration(t) });

interface Credentials {
  readonly pair: TokenPair;
  readonly code: string;
}
const pairAndCode = async (t: RuleContext): Promise<Credentials> => ({ pair: await obtainTokens(t), code: await freshCode(t) });

const OTHER_READING = 'The second integration is the control API\'s (its secret key set through it), else CLIENT_ID_2 of the settings with codes from its own access-granting page; both sets of credentials are genuine, so only the binding can refuse.';

export default defineSpec({
  section: '4.1',
  title: 'Exchange code or refresh token: credentials bound to their client and grant',
  level: 'must',
  rules: [
    scenarioRule<Other>(
      { id: 'oauth.token.code-bound-to-client', requires: [], needs: ['second-integration', 'fresh-code'],
        title: 'An authorization code issued to one integration is refused when another integration exchanges it',
        reading: `RFC 6749 §4.1.3: the server must ensure the code was issued to the authenticated client. ${OTHER_READING} 400 (invalid_grant); another 4xx is non_strict.` },
      {
        setup: withOther,
        steps: [
          step<Other>('a code of the other integration, exchanged with CLIENT_ID', async (t, f) => exchange(t, codeGrant(t.target, await codeFor(t, f.other))), refusal),
          step<Other>('a code of CLIENT_ID, exchanged with the other integration', async (t, f) => exchange(t, codeGrant(asClient(t, f.other), await freshCode(t))), refusal),
        ],
      },
    ),
    scenarioRule<Other>(
      { id: 'oauth.refresh.bound-to-client', requires: [], needs: ['second-integration', 'fresh-code'],
        title: 'A refresh token issued to one integration is refused when another integration exchanges it',
        reading: `RFC 6749 §6: the refresh token must be bound to the client it was issued to. ${OTHER_READING} 400 (invalid_grant); another 4xx is non_strict.` },
      {
        setup: withOther,
        steps: [
          step<Other>('a refresh token of CLIENT_ID, exchanged with the other integration', async (t, f) => exchange(t, refreshGrant(asClient(t, f.other), (await obtainTokens(t)).refresh_token)), refusal),
          step<Other>('a refresh token of the other integration, exchanged with CLIENT_ID', async (t, f) => exchange(t, refreshGrant(t.target, (await tokensFor(t, f.other)).refresh_token)), refusal),
        ],
      },
    ),
    scenarioRule<Credentials>(
      { id: 'oauth.token.grant-confusion', requires: [], needs: ['fresh-code'],
        title: 'A credential sent in another grant\'s field (a code as refresh_token, an access or refresh token as code), or under another grant_type, is refused',
        reading: '§4.1: code is used with authorization_code and refresh_token with refresh_token; each grant accepts only its own kind of credential (RFC 6749 §4.1.3, §6), and the grant is the one grant_type names, whatever credential the body carries (a valid refresh token under grant_type authorization_code, a valid code under refresh_token). The code is fresh and unused, so only the confusion can refuse it. 400; another 4xx is non_strict.' },
      {
        setup: pairAndCode,
        steps: [
          step<Credentials>('an authorization code as refresh_token', (t, f) => exchange(t, refreshGrant(t.target, f.code)), refusal),
          step<Credentials>('an access token as refresh_token', (t, f) => exchange(t, refreshGrant(t.target, f.pair.access_token)), refusal),
          step<Credentials>('a refresh token as code', (t, f) => exchange(t, codeGrant(t.target, f.pair.refresh_token)), refusal),
          step<Credentials>('an access token as code', (t, f) => exchange(t, codeGrant(t.target, f.pair.access_token)), refusal),
          // The grant is grant_type's, whatever credential the body carries (a server choosing by the fields present).
          step<Credentials>('grant_type authorization_code carrying only a valid refresh_token', (t, f) => exchange(t, { ...refreshGrant(t.target, f.pair.refresh_token), grant_type: 'authorization_code' }), refusal),
          step<Credentials>('grant_type refresh_token carrying only a valid code', (t, f) => exchange(t, { ...codeGrant(t.target, f.code), grant_type: 'refresh_token' }), refusal),
        ],
      },
    ),
    exchangeRule<ExchangeAtAddress>(
      { id: 'oauth.token.code-bound-to-account', requires: [], needs: ['fresh-code', 'second-base-url'],
        title: 'A code granted in one account is refused at another account\'s address: a token issued at an address works there',
        reading: 'Preamble: {base_url} is "the address of one customer account" and serves /oauth2/access_token; §4.1: on Allow the integration is installed in the chosen account. A fresh code is exchanged at a second account\'s address (BASE_URL_2, else the control API\'s). The code was granted in the run\'s account through the control API, but on the access-granting page the user may have picked that second account, so the rule judges by the token: none (400; another 4xx non_strict), or one that works at that address (the code was that account\'s). A token that address refuses came of another account\'s code (security: a token for an account the user did not choose there).' },
      {
        send: async (t) => {
          const { address } = await foreignAddress(t);
          const there = { ...t.target, baseUrl: address };
          const exchanged = await t.send(tokenRequest(there, codeGrant(t.target, await freshCode(t))));
          const pair = isSuccess(exchanged.status) ? tokenPairOf(exchanged.text) : undefined;
          return { exchanged, ...(pair ? { probe: await t.send(accountRequest(there, pair.access_token)) } : {}) };
        },
        expect: [(o) => status(400, { accepted: 'informational' })(o.exchanged), tokenForItsAddress],
      },
    ),
    scenarioRule<Credentials>(
      { id: 'api.bearer.not-an-access-token', section: '5.1', requires: [], needs: ['fresh-code'],
        title: 'A refresh token or an authorization code sent as the bearer is refused with 401',
        reading: '§5.1.1: the bearer is the access token. A refresh token is for the token endpoint only (RFC 6749 §1.5) and a code is not a token at all; both are invalid_token (RFC 6750 §3.1). 403 is non_strict.' },
      {
        setup: pairAndCode,
        steps: [
          step<Credentials>('a refresh token as the bearer', (t, f) => t.send(accountRequest(t.target, f.pair.refresh_token)), [status(401)]),
          step<Credentials>('an authorization code as the bearer', (t, f) => t.send(accountRequest(t.target, f.code)), [status(401)]),
        ],
      },
    ),
  ],
});
