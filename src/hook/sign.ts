/**
 * Signing of the disconnect hook (§5.3), for integrators and for the kit: `signature` is the lowercase hex
 * HMAC-SHA256 of `<client_uuid>|<account_id>` keyed with the integration's secret key.
 */
import { createHmac } from 'node:crypto';

export const HOOK_PARAMETERS = ['account_id', 'client_id', 'client_uuid', 'signature'] as const;
export type HookParameter = (typeof HOOK_PARAMETERS)[number];

/** What each parameter carries (§4.1 "Disconnect hook", §5.3, §6), for the API description. */
export const HOOK_PARAMETER_MEANINGS: Readonly<Record<HookParameter, string>> = {
  account_id: 'The account the integration was disconnected in.',
  client_id: 'The integration ID.',
  client_uuid: 'The integration ID again; the receiver checks it equals its own (§5.3).',
  signature: 'Lower-case hex HMAC-SHA256 of `<client_uuid>|<account_id>` keyed with the integration secret key, compared in constant time (§5.3).',
};

/** The text that is signed: `<client_uuid>|<account_id>`. */
export function disconnectHookSigningString(clientUuid: string, accountId: string | number): string {
  return `${clientUuid}|${accountId}`;
}

export function disconnectHookSignature(clientUuid: string, accountId: string | number, clientSecret: string): string {
  return createHmac('sha256', clientSecret).update(disconnectHookSigningString(clientUuid, accountId), 'utf8').digest('hex');
}

/** The four query parameters of a genuine hook for `accountId`, as the service sends them (client_uuid = integration ID). */
export function signDisconnectHook(accountId: string | number, credentials: { clientId: string; clientSecret: string }): Record<HookParameter, string> {
  return {
    account_id: String(accountId),
    client_id: credentials.clientId,
    client_uuid: credentials.clientId,
    signature: disconnectHookSignature(credentials.clientId, accountId, credentials.clientSecret),
  };
}

/** `hookUrl` with the parameters appended to whatever query it already has. */
export function disconnectHookUrl(hookUrl: string, params: Partial<Record<string, string>>): string {
  const url = new URL(hookUrl);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v);
  return url.toString();
}
