/**
 * A second integration for the binding rules (§4.1, RFC 6749 §4.1.3, §6): the target's control API knows another
 * integration besides the configured one (the emulator's private integration), whose secret key it sets; without a
 * control API, the settings name one (CLIENT_ID_2, CLIENT_SECRET_2, REDIRECT_URI_2) and its codes come from its
 * access-granting page like CLIENT_ID's. Either way the kit holds genuine credentials of both and can use one
 * integration's credential with the other's.
 */
import { Precondition } from '../errors.js';
import type { RuleContext, RunResource } from '../model/context.js';
import type { ClientRegistration } from '../model/target.js';
import { codeGrant, type TokenEndpoint, type TokenPair } from '../protocol/oauth.js';
import { requireNeed } from '../targets/needs.js';
import { freshCode } from './live-code.js';
import { exchange, tokensOf } from './oauth.js';

export type ClientCredentials = ClientRegistration;

interface IntegrationView {
  readonly client_id: string;
  readonly redirect_uri: string;
}

class OtherIntegration implements RunResource {
  constructor(readonly credentials: ClientCredentials) {}
  async close(): Promise<void> {}
}

/**
 * The other integration's genuine credentials, once per run: rules running side by side that each set a new secret
 * key would invalidate each other's. With a control API and no second integration in the settings (the embedded
 * emulator), a new secret key of the control API's other integration.
 */
export async function otherIntegration(t: RuleContext): Promise<ClientCredentials> {
  // The settings' second integration first, control API or not: a new secret key would leave CLIENT_SECRET_2 refused
  // for every later run against the same account (runs must be repeatable, one after another).
  if (t.credentials.secondClient || !t.target.capabilities.includes('control')) return secondClientOfSettings(t);
  return (await t.resource('other-integration', async () => new OtherIntegration(await newOtherSecret(t)))).credentials;
}

function secondClientOfSettings(t: RuleContext): ClientCredentials {
  requireNeed('second-integration', t.target);
  const client = t.credentials.secondClient!;
  t.masker.add(client.clientSecret);
  return client;
}

/** Its id and Redirect URI as the control API lists them, and a new secret key. */
async function newOtherSecret(t: RuleContext): Promise<ClientCredentials> {
  const { integrations } = await t.control.call<{ integrations: IntegrationView[] }>('GET', '/integrations');
  const other = integrations.find((i) => i.client_id !== t.credentials.clientId);
  if (!other) throw new Precondition('the control API lists no integration other than CLIENT_ID');
  const { client_secret } = await t.control.call<{ client_secret: string }>('POST', '/secret', { client_id: other.client_id });
  return { clientId: other.client_id, clientSecret: client_secret, redirectUri: other.redirect_uri };
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
