/**
 * §3.1 Credentials: states and transitions.
 *
 * §3.1 Credentials: the refresh exchange and what it leaves behind (rotation, single use, also under concurrency),
 * §5.1.3 (secret optional on refresh), and how an access token stops working (expiry, deactivation; §7 401).
 *
 * §3.1 Credentials: what ends them. Deactivation (§3.1, §7) and a user's disconnect (§6) end every credential of the
 * installation, at the account API and the token endpoint; a reused code ends what it gave (RFC 6749 §4.1.2); a code
 * stays single-use under concurrency. What the spec leaves open (the previous access token after a refresh, a replayed
 * refresh token) is recorded.
 */
import {
  accountIdRecorded, accountRequest, afterElapsed, bearerAt, CREDENTIAL_PLACES, inCase, eachAnswer, refreshedGrantAt, sweepRule, clientError, codeGrant, deactivate, deactivateThrough, defineGroup, describeRefreshMutation, differentFrom, disconnectThrough, disconnectWithoutHookThrough, eachStep, exactlyOneSucceeded, exchange, exchangeRule, field, freshCode, type HttpResponse, jsonContentType, jsonObjectBody, obtainTokens, othersRefused, Precondition, type RefreshMutation, refreshTokenPresent, refreshTokens, reinstallThen, revocableLongLived, revoke, scenarioRule, sideAccountRequest, type SideInstallation, sideInstallation, sidePairOf, singleWinner, status, statusObserved, step, type TokenPair, tokensOf, whenRefused, winnerRefreshObserved, withClockAdvanced,
  accountWorks, tokensIssued, statusIn,
} from '../kit.js';
import { STEP_OWNERS, TargetAnswer, isSuccess, sideRefresh, tokenPairOf } from '../kit.js';
import { RACERS, type Race, winnerRefresh, workingAccess, reinstallEndAndProbe, sideListsRefuse, refreshedOf, refreshSidePair, type RefreshedInstallation } from './support.js';
import { adminAccountIds, HOUR, mustWork, workingLongLived, MINUTE, DAY, THREE_MONTHS_READING, exchangeCodeAfter, refreshAfter, brokenRefresh, REFRESH_REFUSALS } from '../fixtures/oauth.js';


export default defineGroup({
  heading: 'Credentials',
  rules: [
    exchangeRule(
      { id: 'oauth.code.expired', needs: ['one-code', 'clock'], soakSeconds: 21 * MINUTE, exclusive: true,
        title: 'An authorization code is refused 21 minutes after it was issued',
        reading: '§3.1: after 20 minutes the code can no longer be exchanged. 400 as the exchange table states (another 4xx is non_strict), an application/json object as §4.1 states "also on error".',
        covers: ['3.1/authorization code issued', '8/Authorization code lifetime', '7/400'] },
      { send: (t) => exchangeCodeAfter(t, 21 * MINUTE, 'expired'), expect: [status(400), jsonContentType, jsonObjectBody] },
    ),
    exchangeRule(
      { id: 'oauth.refresh.expired', requires: ['control'], needs: ['clock'], exclusive: true,
        title: 'A refresh token is refused 93 days plus an hour after it was issued',
        reading: `${THREE_MONTHS_READING} Refused with 400 (§7 other cases 2: the authorization must be repeated); 401 is non_strict.`,
        covers: ['3.1/refresh token valid', '8/Refresh token lifetime', '2.2/Refresh token'] },
      { send: (t) => refreshAfter(t, 93 * DAY + HOUR), expect: [status(400), whenRefused(jsonContentType), jsonObjectBody] },
    ),
    exchangeRule<readonly HttpResponse[]>(
      { id: 'api.bearer.valid-before-expiry', requires: ['control'], needs: ['clock'], exclusive: true,
        title: 'An access token still works a minute before the expires_in its exchange stated, at the account, each list and page 2 of each list',
        reading: '§2.2: the access token\'s "Lifetime is returned as expires_in"; §3.1: it expires when expires_in seconds have elapsed, so until then it works (200). Probed from the expires_in the server stated (the lifetime reading), with the control clock moved to a minute before it; its refusal after it is judged by api.bearer.stale-token-error.' },
      {
        send: async (t) => {
          const { access_token, expires_in } = await obtainTokens(t);
          if (typeof expires_in !== 'number' || expires_in <= 2 * MINUTE) throw new TargetAnswer(STEP_OWNERS.expiresIn, 'the token response has no expires_in over two minutes (oauth.token-response.expires-in judges that)');
          return withClockAdvanced(t, async (advance) => {
            await advance(expires_in - MINUTE);
            // Every place a bearer is checked, side by side (issue 39); the account's answer first.
            return Promise.all(CREDENTIAL_PLACES.map((place) => t.send(bearerAt(t.target, place, access_token))));
          });
        },
        expect: [...accountWorks.map((check) => (answers: readonly HttpResponse[]) => check(answers[0]!)), eachAnswer(statusIn(200, 204))],
        // A valid access token, as api.bearer.access-token-works sends it to every place.
        case: 'the access token',
      },
    ),
    exchangeRule<readonly HttpResponse[]>(
      { id: 'api.long-lived.expired', requires: ['control'], needs: ['clock'], exclusive: true,
        title: 'A long-lived token is refused with 401 once its expiry has passed',
        reading: 'Created with the shortest expiry the user can pick (1 day); refused a minute after it, by the account and by each of the four lists (one page of one record each: a server that checks the expiry in one handler only lets it through at the others, issue 32). 401 as for any invalid bearer (RFC 6750 §3.1); 403 is non_strict.',
        covers: ['3.1/long-lived token', '2.2/Long-lived token', '7/401'] },
      {
        send: async (t) => {
          const token = await workingLongLived(t, DAY);
          return withClockAdvanced(t, async (advance) => {
            await advance(DAY + MINUTE);
            // Every place a bearer is checked, page 2 of each list too (issue 39), side by side: one request each.
            return inCase('expired long-lived token', () => Promise.all(CREDENTIAL_PLACES.map((place) => t.send(bearerAt(t.target, place, token.long_lived_token)))));
          });
        },
        expect: [eachAnswer(status(401))],
      },
    ),
    exchangeRule(
      { id: 'api.long-lived.revoked', needs: ['operator'], title: 'A revoked long-lived token is refused with 401',
        reading: '§2.2: it can be revoked under issued accesses; §3.1: then it is invalid. Made and revoked through the control API, else by the operator on the Keys tab. 403 is non_strict.',
        covers: ['3.1/long-lived token', '2.2/Long-lived token', '7/401'] },
      {
        send: async (t) => {
          const made = await revocableLongLived(t);
          await mustWork(t, made.token);
          await revoke(t, made);
          return t.send(accountRequest(t.target, made.token));
        },
        expect: [status(401)],
        // The lists and their later pages: api.bearer.revoked-every-list.
        case: 'revoked long-lived token',
      },
    ),
    scenarioRule<TokenPair>(
      { id: 'oauth.refresh.rotates', title: 'A refresh exchange answers 200 with a new refresh token' },
      {
        setup: (t) => obtainTokens(t),
        steps: [
          step('', (t, first) => refreshTokens(t, first.refresh_token), (_t, first) => [
            status(200), refreshTokenPresent, field('refresh_token', differentFrom(first.refresh_token, 'the one exchanged'), 'new refresh token'),
          ]),
        ],
      },
    ),
    exchangeRule(
      { id: 'oauth.refresh.old-token-refused', title: 'A refresh token already exchanged is refused',
        reading: '§3.1: the old refresh token becomes invalid. The exchange table names 400; the live service answers 401 "Token has been revoked" (docs/field-notes.md), which is non_strict. The refusal is an application/json object (§4.1 "also on error").' },
      {
        send: async (t) => {
          const first = await obtainTokens(t);
          tokensOf(await refreshTokens(t, first.refresh_token), 'the first refresh exchange');
          return refreshTokens(t, first.refresh_token);
        },
        expect: [status(400), jsonContentType, jsonObjectBody],
      },
    ),
    exchangeRule(
      { id: 'oauth.refresh.new-token-works', title: 'The refresh token returned by a refresh exchange can itself be exchanged' },
      {
        send: async (t) => {
          const first = await obtainTokens(t);
          const second = tokensOf(await refreshTokens(t, first.refresh_token), 'the first refresh exchange');
          return refreshTokens(t, second.refresh_token);
        },
        expect: [status(200), refreshTokenPresent],
      },
    ),
    exchangeRule(
      { id: 'api.bearer.expired', needs: ['one-code', 'clock'], soakSeconds: 21 * 60, exclusive: true,
        title: 'An access token is refused with 401 at /api/v4/account once expires_in seconds have passed',
        reading: '§3.1: after expires_in seconds the access token is expired and a refresh exchange is needed. Checked a minute after expires_in on the target clock (without a control API, in real time under --profile soak when that fits its window, else skipped saying so); 401 (RFC 6750 §3.1), 403 non_strict.',
        covers: ['3.1/access token valid', '2.2/Access token', '8/Access token lifetime', '7/401'] },
      {
        send: async (t) => {
          const pair = await workingAccess(t);
          const issued = Date.now();
          const lifetime = typeof pair.expires_in === 'number' && pair.expires_in > 0 ? pair.expires_in : undefined;
          if (!lifetime) throw new TargetAnswer(STEP_OWNERS.expiresIn, 'the token response has no positive expires_in');
          return afterElapsed(t, { seconds: lifetime + 60, sinceMs: issued }, () => t.send(accountRequest(t.target, pair.access_token)));
        },
        expect: [status(401)],
        // The lists and their later pages: api.bearer.expired-every-list.
        case: 'expired access token',
      },
    ),
    scenarioRule<SideInstallation & { refreshed?: TokenPair }>(
      { id: 'api.bearer.deactivated-installation', needs: ['consent', 'operator'], exclusive: true,
        title: 'After an administrator deactivates the installation, its access tokens (a refreshed pair\'s and the older pair\'s) get 401 at the account, each of the four lists and page 2 of each list',
        reading: '§3.1 and §7: "API calls return HTTP 401". Done in an account other than the developer account when the target has one, so other rules keep their installation (without a control API, the operator deactivates it); 403 is non_strict. The integration is installed there again first: that code exchange must succeed and its token work (§3.1), a refusal fails the rule; its pair is refreshed once (200, §3.1), so the installation holds a refreshed pair and an older one. The code is exchanged and the tokens used at that account\'s own address (R2-A6). After the deactivation each access token is sent to the account, each of the four lists and page 2 of each (§5.1: every /api/v4 request carries a valid bearer; issues 32 and 39: every credential of the installation at every place), one page of one record each.',
        covers: ['3.1/access token valid', '7/401'] },
      {
        setup: sideInstallation,
        steps: [
          step<SideInstallation>('the reinstall in the side account: its code exchange', reinstallThen(undefined, { longLived: false }), [status(200), refreshTokenPresent]),
          step<SideInstallation>('the access token before deactivation', (t, s) => t.send(sideAccountRequest(s, sidePairOf(s).access_token)), accountWorks),
          refreshSidePair,
          step<RefreshedInstallation>('after deactivation', async (t, s) => {
            await deactivate(t, s.accountId!);
            return inCase('access token after deactivation', () => t.send(sideAccountRequest(s, refreshedOf(s).access_token)));
          }, [status(401)]),
          sideListsRefuse<RefreshedInstallation>('after deactivation', (s) => refreshedOf(s).access_token, { case: 'access token after deactivation', what: 'the refreshed access token' }),
          sideListsRefuse('after deactivation', (s) => sidePairOf(s).access_token, { case: 'older access token after deactivation', what: 'the older access token', account: true }),
        ],
      },
    ),
    scenarioRule<Race>(
      { id: 'oauth.refresh.concurrent-single-use', title: 'Parallel refresh exchanges of one refresh token: exactly one succeeds, and only its new token works afterwards',
        reading: `§2.2 "exchangeable once only" holds under concurrency: ${RACERS} exchanges sent at once, at most one may succeed (two fail; none at all is non_strict, K13). Afterwards the old token is refused. Whether the winner's new refresh token still works is recorded: RFC 6749 §10.4 lets a server revoke the whole family when a rotated token is replayed, which the racing losers did (K14).`,
        covers: ['2.2/Refresh token', '3.1/refresh token valid', '8/Refresh token lifetime'] },
      {
        setup: async (t) => ({ first: await obtainTokens(t), answers: [] }),
        steps: [
          step('', async (t, race) => (race.answers = await Promise.all(Array.from({ length: RACERS }, () => refreshTokens(t, race.first.refresh_token)))), [singleWinner]),
          step('', (t, race) => refreshTokens(t, race.first.refresh_token), [clientError('old token refused')]),
          step('winner works', (t, race) => winnerRefresh(t, race.answers), [winnerRefreshObserved]),
        ],
      },
    ),
    scenarioRule<SideInstallation>(
      { id: 'oauth.deactivation.revokes-credentials', needs: [], requires: ['control'], exclusive: true,
        title: 'After an administrator deactivates the installation, its access, refresh and long-lived tokens are all refused',
        reading: '§3.1: after deactivation API calls return 401 and authorization must be obtained again, so the refresh token gives nothing (400 at the token endpoint; the live service answers 401 "Token has been revoked", non_strict) and no bearer of the installation works (401; 403 non_strict). Done in a side account, where the integration is installed again first: that code exchange must succeed (§3.1), a refusal fails the rule, and its pair is refreshed once (200), so that both the refreshed and the older access token are probed. The code is exchanged and every credential probed at the side account\'s own address (the preamble: "each account has its own sub-domain", R2-A6). Then access is obtained again, as §3.1 says it must be: Allow in the same account, the new code exchanged (200) and its access token working (200); a refusal fails the rule.',
        covers: ['3.1/access token valid', '7/401'] },
      {
        setup: sideInstallation,
        steps: [
          ...reinstallEndAndProbe('after deactivation', deactivateThrough),
          // "authorization must be obtained again": so it can be, in the same account.
          step<SideInstallation>('the reinstall after the deactivation: its code exchange', reinstallThen(undefined, { longLived: false }), [status(200), refreshTokenPresent]),
          step<SideInstallation>('the reinstall after the deactivation: its access token', (t, s) => t.send(sideAccountRequest(s, sidePairOf(s).access_token)), accountWorks),
        ],
      },
    ),
    scenarioRule<SideInstallation>(
      { id: 'oauth.disconnect.revokes-credentials', needs: [], level: 'should', requires: ['control'], exclusive: true,
        title: 'After the user disconnects the integration from an account, its access, refresh and long-lived tokens there are all refused',
        reading: '§6: disconnecting removes the integration from the account; tokens that kept working would let it act there after the user removed it. 401 at the API (the account, then each of the four lists, one page of one record each: issue 32) and 400 at the token endpoint (401 non_strict). Done in a side account, where the integration is installed again first: that code exchange must succeed (§3.1), a refusal fails the rule, and its pair is refreshed once (200), so that the installation holds a refreshed pair and an older one, as a client\'s does after an hour: both access tokens are probed. The code is exchanged and every credential probed at the side account\'s own address ("each account has its own sub-domain", R2-A6).' },
      { setup: sideInstallation, steps: reinstallEndAndProbe('after the disconnect', disconnectThrough, { lists: true }) },
    ),
    scenarioRule<SideInstallation & { readonly own: TokenPair }>(
      { id: 'oauth.deactivation.one-account', needs: [], requires: ['control'], exclusive: true,
        title: 'Deactivating the installation in one account leaves the integration\'s tokens of another account working',
        reading: '§3.1: "administrator deactivates the installation" revokes that installation\'s access token; an installation is the integration in one account, so the tokens it holds in another account keep working (200 at the API and at the token endpoint). The side account is deactivated (its code exchanged at its own address, R2-A6); the run\'s own account is the other.' },
      {
        setup: async (t) => ({ ...(await sideInstallation()), own: await obtainTokens(t) }),
        steps: [
          step<SideInstallation>('the reinstall in the side account: its code exchange, then its deactivation', reinstallThen(deactivateThrough), [status(200), refreshTokenPresent]),
          step<SideInstallation & { readonly own: TokenPair }>('the access token of the other account', (t, f) => t.send(accountRequest(t.target, f.own.access_token)), accountWorks),
          step<SideInstallation & { readonly own: TokenPair }>('the refresh token of the other account', (t, f) => refreshTokens(t, f.own.refresh_token), tokensIssued),
        ],
      },
    ),
    scenarioRule<SideInstallation>(
      { id: 'oauth.disconnect.revokes-without-hook', needs: [], level: 'should', requires: ['control'], exclusive: true,
        title: 'A disconnect revokes the installation\'s tokens also when the integration has no disconnect hook URL',
        reading: '§2.1: the disconnect hook URL is optional; §6: disconnecting removes the integration from the account, hook or no hook. The hook URL is cleared (and put back after), the integration disconnected from a side account: its access tokens (the refreshed pair\'s and the older one), refresh and long-lived tokens are refused as in oauth.disconnect.revokes-credentials.' },
      { setup: sideInstallation, steps: reinstallEndAndProbe('after a disconnect without a hook URL', disconnectWithoutHookThrough, { lists: true }) },
    ),
    exchangeRule(
      { id: 'oauth.token.code-reuse-revokes-refresh', level: 'should', needs: ['fresh-code'],
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
      { id: 'oauth.token.code-concurrent-single-use', needs: ['fresh-code'],
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
      { id: 'oauth.refresh.replay-revokes', level: 'info', needs: ['fresh-code'],
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
      { id: 'oauth.refresh.old-access-token', level: 'info', needs: ['fresh-code'],
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
    exchangeRule(
      { id: 'oauth.token.code-reuse', title: 'An authorization code exchanged once is refused the second time',
        reading: 'The spec says a code is exchanged for the pair; RFC 6749 §4.1.2 makes it single-use. A second exchange gets 400 (another 4xx is non_strict), an application/json object (§4.1 "also on error").' },
      {
        send: async (t) => {
          const fields = codeGrant(t.target, await freshCode(t));
          await exchange(t, fields);
          return exchange(t, fields);
        },
        expect: [status(400), jsonContentType, jsonObjectBody],
      },
    ),
    exchangeRule(
      { id: 'oauth.token.code-reuse-revokes', level: 'should', title: 'Reusing a code revokes the access token first issued for it',
        reading: 'RFC 6749 §4.1.2: the server SHOULD revoke all tokens previously issued from a code that is used twice (a stolen code was replayed). The spec does not restate it: an access token that still works is non_strict (K10); 403 is non_strict too.' },
      {
        send: async (t) => {
          const fields = codeGrant(t.target, await freshCode(t));
          const first = tokensOf(await exchange(t, fields), 'the first exchange');
          await exchange(t, fields);
          return t.send(accountRequest(t.target, first.access_token));
        },
        expect: [status(401, { accepted: 'non_strict' })],
        // The lists and their later pages: api.bearer.revoked-every-list.
        case: 'access token of a code used twice',
      },
    ),
    scenarioRule<TokenPair>(
      { id: 'oauth.refresh.refusal-keeps-token', needs: ['fresh-code'],
        title: 'A refused refresh exchange does not consume the refresh token: it still works afterwards',
        reading: '§3.1: the old refresh token becomes invalid when it is exchanged; a refused request is no exchange. Otherwise anyone who sees a refresh token could burn it with a wrong secret (a denial of service on the integration).' },
      {
        setup: obtainTokens,
        steps: [
          eachStep<TokenPair, RefreshMutation>({
            items: () => REFRESH_REFUSALS,
            label: (m) => `refused (${describeRefreshMutation(m)})`,
            observe: (t, pair, m) => exchange(t, brokenRefresh(t, pair, m)),
            expect: () => [status(400)],
          }),
          step<TokenPair>('the refresh token afterwards', (t, pair) => refreshTokens(t, pair.refresh_token), [status(200), refreshTokenPresent]),
        ],
      },
    ),
    sweepRule<number, HttpResponse, readonly number[]>(
      { id: 'oauth.refresh.same-account', requires: [], needs: ['consent'],
        title: 'A refresh in each account where the user is an administrator yields a token that works at that account\'s address',
        reading: '§3.1: the refresh exchange issues new tokens of the same grant, so of the account the user chose (§4.1). The code of each account is exchanged and the pair refreshed at that account\'s own {base_url} (as oauth.allow.installs-in-chosen-account), and the refreshed access token used there: GET /api/v4/account must answer 200; a refused exchange or refresh fails too (§3.1 demands both succeed). The body is "not shown", so its id is recorded (K33).',
        covers: ['3.1/refresh token valid'] },
      {
        setup: adminAccountIds,
        named: (_t, ids) => ids,
        send: (t, accountId) => refreshedGrantAt(t, accountId),
        expect: (_t, accountId) => [status(200), accountIdRecorded(accountId)],
        label: (accountId) => `account ${accountId}`,
      },
    ),
  ],
});
