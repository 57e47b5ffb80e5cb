/**
 * §3.1 Credentials: the refresh exchange and what it leaves behind (rotation, single use, also under concurrency),
 * §5.1.3 (secret optional on refresh), and how an access token stops working (expiry, deactivation; §7 401).
 */
import {
  accountRequest, clientError, deactivate, defineSpec, differentFrom, exchangeRule, field, type HttpResponse, jsonObjectBody, obtainTokens, Precondition, refreshTokenPresent, refreshTokens, type RuleContext, reinstallThen, scenarioRule, type SideInstallation, sideInstallation, sidePairOf, singleWinner, status, step, whenAccepted, winnerRefreshObserved, type TokenPair, tokenPairOf, tokensOf, afterElapsed, isSuccess,
} from './kit.js';

/** Parallel refresh exchanges of one token in the concurrency rule. */
const RACERS = 8;

/** The parallel exchanges of one refresh token, kept for the steps after them. */
interface Race {
  readonly first: TokenPair;
  answers: readonly HttpResponse[];
}

/** A refresh of the winner's new refresh token; undefined when no exchange won (the race step judged that). */
async function winnerRefresh(t: RuleContext, answers: readonly HttpResponse[]): Promise<HttpResponse | undefined> {
  const won = answers.find((r) => r.status >= 200 && r.status < 300 && tokenPairOf(r.text));
  return won ? refreshTokens(t, tokensOf(won, 'the winning refresh exchange').refresh_token) : undefined;
}

/** An access token that works now (else Precondition: other rules judge that). */
async function workingAccess(t: RuleContext): Promise<TokenPair> {
  const pair = await obtainTokens(t);
  const res = await t.send(accountRequest(t.target, pair.access_token));
  if (!isSuccess(res.status)) throw new Precondition(`a fresh access token was refused at /api/v4/account (status ${res.status})`);
  return pair;
}

export default defineSpec({
  section: '3.1',
  title: 'Credentials: states and transitions',
  level: 'must',
  rules: [
    scenarioRule<TokenPair>(
      { id: 'oauth.refresh.rotates', requires: [], needs: ['one-code'], title: 'A refresh exchange answers 200 with a new refresh token' },
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
      { id: 'oauth.refresh.old-token-refused', requires: [], needs: ['one-code'], title: 'A refresh token already exchanged is refused',
        reading: '§3.1: the old refresh token becomes invalid. The exchange table names 400; the live service answers 401 "Token has been revoked" (docs/field-notes.md), which is non_strict.' },
      {
        send: async (t) => {
          const first = await obtainTokens(t);
          tokensOf(await refreshTokens(t, first.refresh_token), 'the first refresh exchange');
          return refreshTokens(t, first.refresh_token);
        },
        expect: [status(400), jsonObjectBody],
      },
    ),
    exchangeRule(
      { id: 'oauth.refresh.new-token-works', requires: [], needs: ['one-code'], title: 'The refresh token returned by a refresh exchange can itself be exchanged' },
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
      { id: 'oauth.refresh.without-secret', section: '5.1', requires: [], needs: ['one-code'], title: 'A refresh exchange without client_secret succeeds',
        reading: '§4.1 lists client_secret as optional for the refresh grant and §5.1.3 says "secret optional on refresh". "Listed as optional" is not a promise that every server takes it: a refusal with 400 or 401 is non_strict (K12).' },
      {
        send: async (t) => refreshTokens(t, (await obtainTokens(t)).refresh_token, { withSecret: false }),
        expect: [status(200, { refused: 'non_strict' }), whenAccepted(refreshTokenPresent)],
      },
    ),
    exchangeRule(
      { id: 'oauth.refresh.new-access-token-works', section: '5.1', requires: [], needs: ['one-code'], title: 'The access token from a refresh exchange works at /api/v4/account' },
      {
        send: async (t) => {
          const first = await obtainTokens(t);
          const second = tokensOf(await refreshTokens(t, first.refresh_token), 'the refresh exchange');
          return t.send(accountRequest(t.target, second.access_token));
        },
        expect: [status(200)],
      },
    ),

    exchangeRule(
      { id: 'api.bearer.expired', requires: [], needs: ['one-code', 'clock'], soakSeconds: 21 * 60, exclusive: true,
        title: 'An access token is refused with 401 at /api/v4/account once expires_in seconds have passed',
        reading: '§3.1: after expires_in seconds the access token is expired and a refresh exchange is needed. Checked a minute after expires_in on the target clock (without a control API, in real time under --profile soak when that fits its window, else skipped saying so); 401 (RFC 6750 §3.1), 403 non_strict.',
        covers: ['3.1/access token valid', '2.2/Access token', '8/Access token lifetime', '7/401'] },
      {
        send: async (t) => {
          const pair = await workingAccess(t);
          const issued = Date.now();
          const lifetime = typeof pair.expires_in === 'number' && pair.expires_in > 0 ? pair.expires_in : undefined;
          if (!lifetime) throw new Precondition('the token response has no positive expires_in');
          return afterElapsed(t, { seconds: lifetime + 60, sinceMs: issued }, () => t.send(accountRequest(t.target, pair.access_token)));
        },
        expect: [status(401)],
      },
    ),
    scenarioRule<SideInstallation>(
      { id: 'api.bearer.deactivated-installation', requires: [], needs: ['consent', 'operator'], exclusive: true,
        title: 'After an administrator deactivates the installation, its access token gets 401',
        reading: '§3.1 and §7: "API calls return HTTP 401". Done in an account other than the developer account when the target has one, so other rules keep their installation (without a control API, the operator deactivates it); 403 is non_strict. The integration is installed there again first: that code exchange must succeed and its token work (§3.1), a refusal fails the rule.',
        covers: ['3.1/access token valid', '7/401'] },
      {
        setup: sideInstallation,
        steps: [
          step<SideInstallation>('the reinstall in the side account: its code exchange', reinstallThen(undefined, { longLived: false }), [status(200), refreshTokenPresent]),
          step<SideInstallation>('the access token before deactivation', (t, s) => t.send(accountRequest(t.target, sidePairOf(s).access_token)), [status(200)]),
          step<SideInstallation>('after deactivation', async (t, s) => {
            await deactivate(t, s.accountId!);
            return t.send(accountRequest(t.target, sidePairOf(s).access_token));
          }, [status(401)]),
        ],
      },
    ),
    scenarioRule<Race>(
      { id: 'oauth.refresh.concurrent-single-use', requires: [], needs: ['one-code'],
        title: 'Parallel refresh exchanges of one refresh token: exactly one succeeds, and only its new token works afterwards',
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
  ],
});
