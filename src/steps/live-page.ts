/**
 * What the access-granting page rules must know about the integrations, from the control API when the target has one,
 * else from the settings: the integration's name (INTEGRATION_NAME) and a private integration's client id
 * (PRIVATE_CLIENT_ID).
 */
import { SkipRule } from '../errors.js';
import type { RuleContext } from '../model/context.js';
import { supplyOf } from '../targets/needs.js';
import { integrationName, privateIntegration } from './grant-page.js';

const hasControl = (t: RuleContext) => t.target.capabilities.includes('control');

/** The name the page must show for CLIENT_ID. */
export async function expectedIntegrationName(t: RuleContext): Promise<string> {
  if (hasControl(t)) return integrationName(t);
  const supply = supplyOf('integration-name', { id: '' }, t.target);
  if ('gap' in supply) throw new SkipRule(`needs integration-name: ${supply.gap}`);
  return t.credentials.integrationName!;
}

/** The client id of a private integration of the account. */
export async function privateClientId(t: RuleContext): Promise<string> {
  if (hasControl(t)) return privateIntegration(t);
  const supply = supplyOf('private-integration', { id: '' }, t.target);
  if ('gap' in supply) throw new SkipRule(`needs private-integration: ${supply.gap}`);
  return t.credentials.privateClientId!;
}
