/**
 * A user disconnects the integration in an account (§3.1, §6): the installation goes, with every credential of it;
 * the account's chat channels are disconnected (§3.2, through `ctx.integrationDisconnected`); and the GET
 * disconnect hook goes to the integration's hook URL (§4.1, §5.3), awaited so the caller knows it was delivered.
 */
import { createHmac } from 'node:crypto';
import type { EmulatorContext } from '../context.js';
import type { Account, Integration } from '../world.js';
import { retiredSecret, uninstall } from './lifecycle.js';

/** A receiver that does not answer within this is reported as such; the disconnect itself stands. */
const HOOK_TIMEOUT_MS = 3_000;
/** When the `disconnect-hook-retried` variation delivers the hook again. */
const RETRY_DELAY_MS = 200;

export interface HookDelivery {
  /** The hook URL without its query (the query carries the signature; not secret, but noise). */
  readonly url: string;
  readonly status?: number;
  readonly error?: string;
}

export interface DisconnectOutcome {
  readonly account_id: number;
  readonly client_id: string;
  readonly was_installed: boolean;
  readonly revoked: number;
  /** Absent when the integration has no hook URL (it is optional, §2.1). */
  readonly hook?: HookDelivery;
}

/** The query of the disconnect hook: `signature` is hex HMAC-SHA256 of `<client_uuid>|<account_id>` under the secret key. */
export function disconnectHookQuery(ctx: EmulatorContext, integration: Integration, account: Account): URLSearchParams {
  const f = ctx.faults;
  // Only for the `hook-account-id-developer-account` fault: the hook names the account the integration belongs to.
  const accountId = String(f.isOn('hook-account-id-developer-account') ? ctx.world.account.id : account.id);
  const clientUuid = f.isOn('hook-client-uuid-wrong') ? account.amojoId : integration.clientId;
  const signed = f.isOn('hook-signature-reversed') ? `${accountId}|${clientUuid}`
    : f.isOn('hook-signed-over-query') ? `account_id=${accountId}&client_uuid=${clientUuid}` : `${clientUuid}|${accountId}`;
  const clientId = ctx.variations.isOn('hook-client-id-other') ? account.amojoId : integration.clientId;
  const query = new URLSearchParams({ account_id: accountId, client_id: clientId });
  if (f.isOn('hook-client-id-missing')) query.delete('client_id');
  if (!f.isOn('hook-missing-client-uuid')) query.set('client_uuid', clientUuid);
  // A signer that kept the key it was configured with: regeneration reached the token endpoint, not the hook sender.
  const key = (f.isOn('hook-signed-with-old-secret') ? retiredSecret(ctx, integration.clientId) : undefined) ?? integration.clientSecret;
  // The faults `hook-signature-sha1` (the chat interface's algorithm, §5.2) and `hook-signature-base64` (another digest encoding).
  const signature = createHmac(f.isOn('hook-signature-sha1') ? 'sha1' : 'sha256', key).update(signed).digest(f.isOn('hook-signature-base64') ? 'base64' : 'hex');
  query.set('signature', ctx.variations.isOn('hook-signature-upper-hex') ? signature.toUpperCase() : signature);
  return query;
}

export async function disconnectIntegration(ctx: EmulatorContext, integration: Integration, account: Account): Promise<DisconnectOutcome> {
  const wasInstalled = uninstall(ctx, integration.clientId, account.id);
  // Only for the `disconnect-without-hook-keeps-tokens` fault: the revocation rides on the hook, so none without one.
  const keep = !integration.hookUrl && ctx.faults.isOn('disconnect-without-hook-keeps-tokens');
  const revoked = keep ? 0 : ctx.store.revokeInstallation(integration.clientId, account.id, ctx.clock.nowMs(), 'disconnect');
  if (integration.clientId === ctx.world.integration.clientId) ctx.integrationDisconnected(account.id);
  const outcome = { account_id: account.id, client_id: integration.clientId, was_installed: wasInstalled, revoked };
  if (!integration.hookUrl) return outcome;
  const query = disconnectHookQuery(ctx, integration, account);
  const hook = await sendHook(integration.hookUrl, query, ctx.faults.isOn('hook-as-post') ? 'POST' : 'GET');
  // The `disconnect-hook-retried` variation: a retry queue delivers the same hook, as it was, again a little later.
  if (ctx.variations.isOn('disconnect-hook-retried')) setTimeout(() => void sendHook(integration.hookUrl!, query), RETRY_DELAY_MS);
  // Only for the `disconnect-hook-twice-differing` fault: the chat channel's disconnect sends a hook of its own.
  if (ctx.faults.isOn('disconnect-hook-twice-differing')) {
    const other = disconnectHookQuery(ctx, integration, account);
    other.set('client_uuid', account.amojoId);
    await sendHook(integration.hookUrl, other);
  }
  return { ...outcome, hook };
}

/** `method` is POST only under the `hook-as-post` fault (a webhook sender's habit; §6 states a GET). */
async function sendHook(hookUrl: string, query: URLSearchParams, method: 'GET' | 'POST' = 'GET'): Promise<HookDelivery> {
  const url = new URL(hookUrl);
  for (const [k, v] of query) url.searchParams.append(k, v);
  const shown = `${url.origin}${url.pathname}`;
  try {
    const res = await fetch(url, { method, redirect: 'manual', signal: AbortSignal.timeout(HOOK_TIMEOUT_MS) });
    await res.body?.cancel();
    return { url: shown, status: res.status };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return { url: shown, error: e.cause?.code ?? e.name ?? 'request failed' };
  }
}
