/**
 * A second integration for the binding rules (§4.1, RFC 6749 §4.1.3, §6): the target's control API knows another
 * integration besides the configured one (the emulator's private integration), whose secret key it sets; without a
 * control API, the settings name one (CLIENT_ID_2, CLIENT_SECRET_2, REDIRECT_URI_2) and its codes come from its
 * access-granting page like CLIENT_ID's. Either way the kit holds genuine credentials of both and can use one
 * integration's credential with the other's.
 */
import type { RuleContext } from '../model/context.js';
import type { ClientRegistration } from '../model/target.js';
import type { TokenPair } from '../protocol/answers.js';
import { codeGrant, type TokenEndpoint } from '../protocol/oauth.js';
import { freshCode } from './live-code.js';
import { exchange, tokensOf } from './oauth.js';

export type ClientCredentials = ClientRegistration;

/**
 * The other integration's genuine credentials: the settings' second integration first, control API or not (a new
 * secret key would leave CLIENT_SECRET_2 refused for every later run against the same account: runs must be
 * repeatable, one after another); else, once per run, a new secret key of the control API's other integration.
 */
export async function otherIntegration(t: RuleContext): Promise<ClientCredentials> {
  return t.need('second-integration');
}

/** The target's token endpoint as the other integration calls it. */
export function asClient(t: RuleContext, client: ClientCredentials): TokenEndpoint {
  return { baseUrl: t.target.baseUrl, credentials: { ...t.credentials, ...client } };
}

/** An authorization code minted for `client` (the user clicks Allow on its access-granting page). */
export function codeFor(t: RuleContext, client: ClientCredentials): Promise<string> {
  return freshCode(t, { clientId: client.clientId });
}

/** A token pair of `client`. */
export async function tokensFor(t: RuleContext, client: ClientCredentials): Promise<TokenPair> {
  return tokensOf(await exchange(t, codeGrant(asClient(t, client), await codeFor(t, client))), `the code exchange of integration ${client.clientId}`);
}
