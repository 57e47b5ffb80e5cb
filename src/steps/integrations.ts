/**
 * A second integration for the binding rules (§4.1, RFC 6749 §4.1.3, §6): the target's control API knows another
 * integration besides the configured one (the emulator's private integration). Its secret key is set through the
 * control API, so the kit holds genuine credentials of both and can use one integration's credential with the other's.
 */
import { Precondition } from '../errors.js';
import type { RuleContext, RunResource } from '../model/context.js';
import { codeGrant, type TokenEndpoint, type TokenPair } from '../protocol/oauth.js';
import { exchange, tokensOf } from './oauth.js';

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
}

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
 * key would invalidate each other's.
 */
export async function otherIntegration(t: RuleContext): Promise<ClientCredentials> {
  return (await t.resource('other-integration', async () => new OtherIntegration(await newOtherSecret(t)))).credentials;
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
export async function codeFor(t: RuleContext, client: ClientCredentials): Promise<string> {
  const { code } = await t.control.consent({ clientId: client.clientId, decision: 'allow' });
  if (!code) throw new Precondition(`consent for integration ${client.clientId} gave no code`);
  return code;
}

/** A token pair of `client`. */
export async function tokensFor(t: RuleContext, client: ClientCredentials): Promise<TokenPair> {
  return tokensOf(await exchange(t, codeGrant(asClient(t, client), await codeFor(t, client))), `the code exchange of integration ${client.clientId}`);
}
