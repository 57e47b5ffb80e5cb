/**
 * The per-account address of the spec's preamble ({base_url}: "address of one customer account; each account has its
 * own sub-domain"): a bearer of the run, shown to work at BASE_URL, and the address of an account it was not granted
 * in: BASE_URL_2 from the settings, else the control API's second account (`base_url` in GET /_control/accounts).
 */
import { inCase } from '../rule-scope.js';
import { jsonAt } from '../checks/fields.js';
import { TargetAnswer } from '../errors.js';
import { STEP_OWNERS } from './owners.js';
import type { RuleContext } from '../model/context.js';
import type { HttpRequest } from '../model/http.js';
import { isSuccess } from '../model/http.js';
import { accountRequest, tokenPairOf, tokenRequest } from '../protocol/oauth.js';
import type { ExchangeAtAddress } from '../checks/token.js';
import { apiToken } from './api-token.js';

export interface ForeignAddress {
  readonly token: string;
  /** The {base_url} of an account the token was not granted in. */
  readonly address: string;
}

/**
 * A bearer of the run's account (the run's access token, or `longLived`) and another account's address; the bearer is
 * first shown to work at BASE_URL (else TargetAnswer).
 */
export async function foreignAddress(t: RuleContext, longLived?: string): Promise<ForeignAddress> {
  const addressOf = await t.need('second-base-url');
  const token = longLived ?? await apiToken(t);
  const own = await t.send(accountRequest(t.target, token));
  // Without a token that works at its own account, a refusal elsewhere would prove nothing.
  if (!isSuccess(own.status)) {
    const [owner, what] = longLived === undefined ? [STEP_OWNERS.freshAccessToken, 'access token'] : [STEP_OWNERS.longLivedToken, 'long-lived token'];
    throw new TargetAnswer(owner, `the run's ${what} does not work at BASE_URL (GET /api/v4/account answered ${own.status})`);
  }
  return { token, address: await addressOf(jsonAt(own, 'id')) };
}

/** A bearer of one kind (src/needs/credentials.ts). */
export interface KindedBearer {
  readonly kind: 'oauth-access' | 'long-lived';
  readonly token: string;
}

/** Every kind of bearer the run's settings offer, each shown to work at BASE_URL, and another account's address. */
export interface ForeignBearers {
  readonly address: string;
  readonly bearers: readonly KindedBearer[];
  /** The kinds the run cannot send, with why. */
  readonly unsent: ReadonlyMap<KindedBearer['kind'], string>;
}

export const BEARER_KINDS: readonly KindedBearer['kind'][] = ['oauth-access', 'long-lived'];

/**
 * Each kind of bearer at another account's address (issue 37: a setting must not decide which kind a rule sends): an
 * OAuth access token (the `oauth-access-token` need, whatever LONG_LIVED_TOKEN says) and, when the settings hold one,
 * the long-lived token; each is first shown to work at BASE_URL (else TargetAnswer).
 */
export async function foreignBearers(t: RuleContext): Promise<ForeignBearers> {
  const addressOf = await t.need('second-base-url');
  const bearers: KindedBearer[] = [{ kind: 'oauth-access', token: await t.need('oauth-access-token') }];
  const unsent = new Map<KindedBearer['kind'], string>();
  const longLived = t.credentials.longLivedToken;
  if (longLived) bearers.push({ kind: 'long-lived', token: longLived });
  else unsent.set('long-lived', 'LONG_LIVED_TOKEN is not set (api.base-url.long-lived-per-account makes one through the control API or the operator)');
  let ownId: unknown;
  for (const b of bearers) {
    const own = await t.send(accountRequest(t.target, b.token));
    if (!isSuccess(own.status)) {
      const [owner, what] = b.kind === 'oauth-access' ? [STEP_OWNERS.freshAccessToken, 'OAuth access token'] : [STEP_OWNERS.longLivedToken, 'long-lived token'];
      throw new TargetAnswer(owner, `the run's ${what} does not work at BASE_URL (GET /api/v4/account answered ${own.status})`);
    }
    ownId ??= jsonAt(own, 'id');
  }
  return { address: await addressOf(ownId), bearers, unsent };
}

/** GET /api/v4/account at the other account's address, with the run's bearer. */
export function foreignAccountRequest(t: RuleContext, probe: ForeignAddress): HttpRequest {
  return accountRequest({ ...t.target, baseUrl: probe.address }, probe.token);
}

/**
 * A credential of the run's account (the token request `fields` makes) exchanged at another account's address, and, when
 * that gave a pair, GET /api/v4/account there with its access token (src/checks/token.ts `noTokenAtAnotherAddress`).
 */
export async function exchangeAtForeignAddress(t: RuleContext, fields: () => Promise<Record<string, unknown>>): Promise<ExchangeAtAddress> {
  const { address } = await foreignAddress(t);
  const there = { ...t.target, baseUrl: address };
  const credentials = await fields();
  // The case of the statement this is (the places table): an exchange at another address, which reaches a bearer place
  // only when it wrongly gives a token; the set-up's own check of the run's token at BASE_URL is no case.
  return inCase('a credential exchanged at another account\'s address', async () => {
    const exchanged = await t.send(tokenRequest(there, credentials));
    const pair = isSuccess(exchanged.status) ? tokenPairOf(exchanged.text) : undefined;
    return { exchanged, ...(pair ? { probe: await t.send(accountRequest(there, pair.access_token)) } : {}) };
  });
}
