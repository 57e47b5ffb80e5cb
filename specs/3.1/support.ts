/**
 * What the rules of §3.1 share: fixtures, case tables and the makers of rule families.
 */
import {
  accountRequest, bearerAt, credentialPlaceName, CREDENTIAL_PLACES, type CredentialPlace, credentialsOf, eachStep, inCase, sideTarget, sideAccountRequest, sideRefresh, type HttpResponse, isSuccess, obtainTokens, Precondition, refreshTokenPresent, refreshTokens, reinstallThen, type RuleContext, type SideInstallation, status, step, type TokenPair, tokenPairOf, tokensOf, jsonContentType, whenRefused,
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

/**
 * The integration installed again in the side account (its code exchange judged: §3.1 demands it succeed, issue 19 §4),
 * the installation ended with `end`, then each credential of it in turn: the access token (at the account and, with
 * `lists`, at the four lists), the refresh token, the long-lived token, each at the side account's own address (R2-A6).
 */
export function reinstallEndAndProbe(label: string, end: (t: RuleContext, accountId: number) => Promise<void>, options: { lists?: boolean } = {}) {
  return [
    step<SideInstallation>('the reinstall in the side account: its code exchange', reinstallThen(end), [status(200), refreshTokenPresent]),
    step<SideInstallation>(`${label}: the access token`, (t, s) => t.send(sideAccountRequest(s, credentialsOf(s).pair.access_token)), [status(401)], { case: `access token ${label}` }),
    ...(options.lists ? [sideListsRefuse(label, (s) => credentialsOf(s).pair.access_token, { case: `access token ${label}` })] : []),
    step<SideInstallation>(`${label}: the refresh token`, (t, s) => sideRefresh(t, s, credentialsOf(s).pair.refresh_token), [status(400), whenRefused(jsonContentType)]),
    step<SideInstallation>(`${label}: the long-lived token`, (t, s) => t.send(sideAccountRequest(s, credentialsOf(s).longLived.long_lived_token)), [status(401)], { case: `long-lived token ${label}` }),
    // The installation's long-lived token at the lists too (issue 39: every credential of the installation at every place).
    ...(options.lists ? [sideListsRefuse(label, (s) => credentialsOf(s).longLived.long_lived_token, { case: `long-lived token ${label}`, what: 'the long-lived token' })] : []),
  ];
}
