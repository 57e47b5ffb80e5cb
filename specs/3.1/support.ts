/**
 * What the rules of §3.1 share: fixtures, case tables and the makers of rule families.
 */
import {
  accountRequest, bearerAt, sidePairOf, credentialPlaceName, CREDENTIAL_PLACES, type CredentialPlace, credentialsOf, eachStep, inCase, sideTarget, sideAccountRequest, sideRefresh, type HttpResponse, isSuccess, obtainTokens, Precondition, refreshTokenPresent, refreshTokens, reinstallThen, type RuleContext, type SideInstallation, status, step, type TokenPair, tokenPairOf, tokensOf, jsonContentType, whenRefused,
} from '../kit.js';
import { STEP_OWNERS, TargetAnswer } from '../kit.js';

/** Parallel refresh exchanges of one token in the concurrency rule. */
export const RACERS = 8;

/** The parallel exchanges of one refresh token, kept for the steps after them. */
export interface Race {
  readonly first: TokenPair;
  answers: readonly HttpResponse[];
}

/** A refresh of the winner's new refresh token; undefined when no exchange won (the race step judged that). */
export async function winnerRefresh(t: RuleContext, answers: readonly HttpResponse[]): Promise<HttpResponse | undefined> {
  const won = answers.find((r) => r.status >= 200 && r.status < 300 && tokenPairOf(r.text));
  return won ? refreshTokens(t, tokensOf(won, 'the winning refresh exchange').refresh_token) : undefined;
}

/** An access token that works now (else Precondition: other rules judge that). */
export async function workingAccess(t: RuleContext): Promise<TokenPair> {
  const pair = await obtainTokens(t);
  const res = await t.send(accountRequest(t.target, pair.access_token));
  if (!isSuccess(res.status)) throw new TargetAnswer(STEP_OWNERS.freshAccessToken, `a fresh access token was refused at /api/v4/account (status ${res.status})`);
  return pair;
}

/**
 * The access token of the side installation at each of the four lists, at the side account's own address: a revoked
 * bearer is refused by every endpoint that takes one (issue 32), and a server that reads the installation's state in one
 * handler only lets it through at the others. One page of one record per list keeps the cost to a request a place.
 */
export function sideListsRefuse<S extends SideInstallation = SideInstallation>(label: string, token: (s: S) => string, options: { readonly case: string; readonly what?: string; readonly account?: boolean }) {
  const places = CREDENTIAL_PLACES.filter((p) => options.account === true || p.endpoint.name !== 'account');
  return eachStep<S, CredentialPlace>({
    items: () => places,
    label: (p) => `${label}: ${options.what ?? 'the access token'} at ${credentialPlaceName(p)}`,
    // Each place is a place of the case (the places table, issue 39): page 2 of each list too.
    observe: (t, s, p) => inCase(options.case, () => t.send(bearerAt(sideTarget(s), p, token(s)))),
    expect: () => [status(401)],
  });
}

/** The pair the refresh step gave (the scenario stops before this when it gave none). */
export const refreshedOf = (s: { refreshed?: TokenPair }): TokenPair => {
  if (!s.refreshed) throw new Precondition('the refresh gave no token pair');
  return s.refreshed;
};

/** A side installation whose pair was refreshed once: it holds the refreshed pair and the older one. */
export type RefreshedInstallation = SideInstallation & { refreshed?: TokenPair };

/** The refresh of the side installation's pair, at its own address: the pair it gives is kept as `refreshed`. */
export const refreshSidePair = step<RefreshedInstallation>('the refresh of its pair', async (t, s) => {
  const res = await sideRefresh(t, s, sidePairOf(s).refresh_token);
  const pair = isSuccess(res.status) ? tokenPairOf(res.text) : undefined;
  if (pair) s.refreshed = pair;
  return res;
}, [status(200), refreshTokenPresent]);

/**
 * The integration installed again in the side account (its code exchange judged: §3.1 demands it succeed, issue 19 §4)
 * and its pair refreshed once (200, §3.1: so the installation holds a refreshed pair and an older one, as a client's
 * does after an hour), the installation ended with `end`, then each credential of it in turn: both access tokens (at
 * the account and, with `lists`, at each list and page 2 of each), the refresh token, the long-lived token, each at the
 * side account's own address (R2-A6). A server that ends only the latest pair, or only the first, lets one through.
 */
export function reinstallEndAndProbe(label: string, end: (t: RuleContext, accountId: number) => Promise<void>, options: { lists?: boolean } = {}) {
  const olderAt = (s: RefreshedInstallation) => credentialsOf(s).pair.access_token;
  return [
    step<RefreshedInstallation>('the reinstall in the side account: its code exchange', reinstallThen(), [status(200), refreshTokenPresent]),
    refreshSidePair,
    step<RefreshedInstallation>(`${label}: the access token`, async (t, s) => {
      await end(t, credentialsOf(s).accountId);
      return t.send(sideAccountRequest(s, refreshedOf(s).access_token));
    }, [status(401)], { case: `access token ${label}` }),
    ...(options.lists ? [sideListsRefuse<RefreshedInstallation>(label, (s) => refreshedOf(s).access_token, { case: `access token ${label}`, what: 'the refreshed access token' })] : []),
    options.lists
      ? sideListsRefuse<RefreshedInstallation>(label, olderAt, { case: `older access token ${label}`, what: 'the older access token', account: true })
      : step<RefreshedInstallation>(`${label}: the older access token`, (t, s) => t.send(sideAccountRequest(s, olderAt(s))), [status(401)], { case: `older access token ${label}` }),
    step<RefreshedInstallation>(`${label}: the refresh token`, (t, s) => sideRefresh(t, s, refreshedOf(s).refresh_token), [status(400), whenRefused(jsonContentType)]),
    step<RefreshedInstallation>(`${label}: the long-lived token`, (t, s) => t.send(sideAccountRequest(s, credentialsOf(s).longLived.long_lived_token)), [status(401)], { case: `long-lived token ${label}` }),
    // The installation's long-lived token at the lists too (issue 39: every credential of the installation at every place).
    ...(options.lists ? [sideListsRefuse<RefreshedInstallation>(label, (s) => credentialsOf(s).longLived.long_lived_token, { case: `long-lived token ${label}`, what: 'the long-lived token' })] : []),
  ];
}
