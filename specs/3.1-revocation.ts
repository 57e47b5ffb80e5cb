/**
 * §3.1 Credentials: what ends them. Deactivation (§3.1, §7) and a user's disconnect (§6) end every credential of the
 * installation, at the account API and the token endpoint; a reused code ends what it gave (RFC 6749 §4.1.2); a code
 * stays single-use under concurrency. What the spec leaves open (the previous access token after a refresh, a replayed
 * refresh token) is recorded.
 */
import {
  accountRequest, codeGrant, credentialsOf, type TokenPair, deactivateThrough, defineSpec, disconnectThrough, disconnectWithoutHookThrough, exactlyOneSucceeded, exchange, exchangeRule, freshCode, type HttpResponse, obtainTokens, othersRefused, refreshTokenPresent, refreshTokens, reinstallThen, type RuleContext, sidePairOf, scenarioRule, type SideInstallation, sideInstallation, status, statusObserved, step, tokensOf,
} from './kit.js';

/** Parallel exchanges of one code in the race rule, as in oauth.refresh.concurrent-single-use. */
const RACERS = 8;

/**
 * The integration installed again in the side account (its code exchange judged: §3.1 demands it succeed, issue 19 §4),
 * the installation ended with `end`, then each credential of it in turn: the access token, the refresh token, the
 * long-lived token.
 */
function reinstallEndAndProbe(label: string, end: (t: RuleContext, accountId: number) => Promise<void>) {
  return [
    step<SideInstallation>('the reinstall in the side account: its code exchange', reinstallThen(end), [status(200), refreshTokenPresent]),
    step<SideInstallation>(`${label}: the access token`, (t, s) => t.send(accountRequest(t.target, credentialsOf(s).pair.access_token)), [status(401)]),
    step<SideInstallation>(`${label}: the refresh token`, (t, s) => refreshTokens(t, credentialsOf(s).pair.refresh_token), [status(400)]),
    step<SideInstallation>(`${label}: the long-lived token`, (t, s) => t.send(accountRequest(t.target, credentialsOf(s).longLived.long_lived_token)), [status(401)]),
  ];
}

export default defineSpec({
  section: '3.1',
  title: 'Credentials: revocation and races',
  level: 'must',
  rules: [
    scenarioRule<SideInstallation>(
      { id: 'oauth.deactivation.revokes-credentials', requires: ['control'], exclusive: true,
        title: 'After an administrator deactivates the installation, its access, refresh and long-lived tokens are all refused',
        reading: '§3.1: after deactivation API calls return 401 and authorization must be obtained again, so the refresh token gives nothing (400 at the token endpoint; the live service answers 401 "Token has been revoked", non_strict) and no bearer of the installation works (401; 403 non_strict). Done in a side account, where the integration is installed again first: that code exchange must succeed (§3.1), a refusal fails the rule. Then access is obtained again, as §3.1 says it must be: Allow in the same account, the new code exchanged (200) and its access token working (200); a refusal fails the rule.',
        covers: ['3.1/access token valid', '7/401'] },
      {
        setup: sideInstallation,
        steps: [
          ...reinstallEndAndProbe('after deactivation', deactivateThrough),
          // "authorization must be obtained again": so it can be, in the same account.
          step<SideInstallation>('the reinstall after the deactivation: its code exchange', reinstallThen(undefined, { longLived: false }), [status(200), refreshTokenPresent]),
          step<SideInstallation>('the reinstall after the deactivation: its access token', (t, s) => t.send(accountRequest(t.target, sidePairOf(s).access_token)), [status(200)]),
        ],
      },
    ),
    scenarioRule<SideInstallation>(
      { id: 'oauth.disconnect.revokes-credentials', level: 'should', requires: ['control'], exclusive: true,
        title: 'After the user disconnects the integration from an account, its access, refresh and long-lived tokens there are all refused',
        reading: '§6: disconnecting removes the integration from the account; tokens that kept working would let it act there after the user removed it. 401 at the API and 400 at the token endpoint (401 non_strict). Done in a side account, where the integration is installed again first: that code exchange must succeed (§3.1), a refusal fails the rule.' },
      { setup: sideInstallation, steps: reinstallEndAndProbe('after the disconnect', disconnectThrough) },
    ),
    scenarioRule<SideInstallation & { readonly own: TokenPair }>(
      { id: 'oauth.deactivation.one-account', requires: ['control'], exclusive: true,
        title: 'Deactivating the installation in one account leaves the integration\'s tokens of another account working',
        reading: '§3.1: "administrator deactivates the installation" revokes that installation\'s access token; an installation is the integration in one account, so the tokens it holds in another account keep working (200 at the API and at the token endpoint). The side account is deactivated; the run\'s own account is the other.' },
      {
        setup: async (t) => ({ ...(await sideInstallation()), own: await obtainTokens(t) }),
        steps: [
          step<SideInstallation>('the reinstall in the side account: its code exchange, then its deactivation', reinstallThen(deactivateThrough), [status(200), refreshTokenPresent]),
          step<SideInstallation & { readonly own: TokenPair }>('the access token of the other account', (t, f) => t.send(accountRequest(t.target, f.own.access_token)), [status(200)]),
          step<SideInstallation & { readonly own: TokenPair }>('the refresh token of the other account', (t, f) => refreshTokens(t, f.own.refresh_token), [status(200)]),
        ],
      },
    ),
    scenarioRule<SideInstallation>(
      { id: 'oauth.disconnect.revokes-without-hook', level: 'should', requires: ['control'], exclusive: true,
        title: 'A disconnect revokes the installation\'s tokens also when the integration has no disconnect hook URL',
        reading: '§2.1: the disconnect hook URL is optional; §6: disconnecting removes the integration from the account, hook or no hook. The hook URL is cleared (and put back after), the integration disconnected from a side account: its access, refresh and long-lived tokens are refused as in oauth.disconnect.revokes-credentials.' },
      { setup: sideInstallation, steps: reinstallEndAndProbe('after a disconnect without a hook URL', disconnectWithoutHookThrough) },
    ),
    exchangeRule(
      { id: 'oauth.token.code-reuse-revokes-refresh', level: 'should', requires: [], needs: ['fresh-code'],
        title: 'Reusing a code revokes the refresh token first issued for it',
        reading: 'RFC 6749 §4.1.2: the server SHOULD revoke all tokens previously issued from a code that is used twice: the refresh token as well as the access token (oauth.token.code-reuse-revokes). 400; 401 is non_strict. The spec does not restate it: a refresh token that still works is non_strict (K10).' },
      {
        send: async (t) => {
          const fields = codeGrant(t.target, await freshCode(t));
          const first = tokensOf(await exchange(t, fields), 'the first exchange');
          await exchange(t, fields);
          return refreshTokens(t, first.refresh_token);
        },
        expect: [status(400, { accepted: 'non_strict' })],
      },
    ),
    exchangeRule<readonly HttpResponse[]>(
      { id: 'oauth.token.code-concurrent-single-use', requires: [], needs: ['fresh-code'],
        title: `Parallel exchanges of one authorization code: exactly one of ${RACERS} succeeds`,
        reading: `RFC 6749 §4.1.2: a code must not be used more than once, also when the uses race. ${RACERS} exchanges sent at once; one should succeed (the code was fresh) and the others get a 4xx. Two successes fail; none at all is non_strict (still single use, K13).`,
        covers: ['2.2/Authorization code'] },
      {
        send: async (t) => {
          const fields = codeGrant(t.target, await freshCode(t));
          return Promise.all(Array.from({ length: RACERS }, () => exchange(t, fields)));
        },
        expect: [exactlyOneSucceeded, othersRefused],
      },
    ),
    exchangeRule(
      { id: 'oauth.refresh.replay-revokes', level: 'info', requires: [], needs: ['fresh-code'],
        title: 'Whether replaying an exchanged refresh token revokes the refresh token issued in its place',
        reading: 'RFC 6749 §10.4 lets a server revoke the whole chain when a rotated refresh token is replayed (a sign of theft); the spec does not say. Recorded: the status of the new refresh token after the old one was replayed.' },
      {
        send: async (t) => {
          const first = await obtainTokens(t);
          const second = tokensOf(await refreshTokens(t, first.refresh_token), 'the refresh exchange');
          await refreshTokens(t, first.refresh_token);
          return refreshTokens(t, second.refresh_token);
        },
        expect: [statusObserved('new refresh token after a replay', { accepted: 'still works (no chain revocation)', refused: 'revoked with the replayed one' })],
      },
    ),
    exchangeRule(
      { id: 'oauth.refresh.old-access-token', level: 'info', requires: [], needs: ['fresh-code'],
        title: 'Whether the access token issued before a refresh still works after it',
        reading: '§3.1 says the old refresh token becomes invalid, not the old access token; RFC 6749 leaves it to the server. Recorded: /api/v4/account with the previous access token after a refresh.' },
      {
        send: async (t) => {
          const first = await obtainTokens(t);
          tokensOf(await refreshTokens(t, first.refresh_token), 'the refresh exchange');
          return t.send(accountRequest(t.target, first.access_token));
        },
        expect: [statusObserved('previous access token', { accepted: 'still valid until it expires', refused: 'revoked by the refresh' })],
      },
    ),
  ],
});
