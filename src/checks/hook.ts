/**
 * Checks of a received disconnect hook (§4.1, §5.3, §6).
 */
import type { Judge } from '../model/check.js';
import type { ReceivedHook } from '../model/context.js';
import { fail, nonStrict, observed, pass } from '../model/outcome.js';
import { disconnectHookSignature, HOOK_PARAMETERS } from '../hook/sign.js';

export type HookCheck = Judge<ReceivedHook>;

/** A hook came within the window the rule waited (src/steps/lifecycle.ts POLICY_HOOK_WINDOW_MS, docs/verdicts.md). */
export const hookArrived: Judge<{ readonly hook: ReceivedHook | undefined }> = ({ hook }) => hook
  ? pass('hook received', `a ${hook.method} to the hook URL`)
  : fail('hook received', 'expected a GET to the disconnect hook URL after the user disconnected the integration, observed none within the window (docs/verdicts.md)');

export const hookIsGet: HookCheck = (h) => h.method === 'GET' ? pass('GET', 'the hook is a GET') : fail('GET', `expected a GET request, observed ${h.method}`);

export const hookHasAllParameters: HookCheck = (h) => {
  const missing = HOOK_PARAMETERS.filter((p) => !h.query.get(p));
  return missing.length === 0
    ? pass('hook parameters', `${HOOK_PARAMETERS.join(', ')} present`)
    : fail('hook parameters', `expected ${HOOK_PARAMETERS.join(', ')}, observed no ${missing.join(', no ')}`);
};

export function hookParameterEquals(name: string, expected: string, what: string): HookCheck {
  return (h) => h.query.get(name) === expected
    ? pass(name, `${name} is ${what}`)
    : fail(name, `expected ${name} to be ${what}, observed ${h.query.has(name) ? 'another value' : `no ${name}`}`);
}

/**
 * signature = hex HMAC-SHA256 of `<client_uuid>|<account_id>` under the secret key (REQ-5.3-signature): lower-case hex
 * passes; the right HMAC in upper-case hex is non_strict (K17: a receiver comparing strings as §5.3 says would refuse it).
 */
export function hookSignatureValid(clientSecret: string): HookCheck {
  return (h) => {
    const uuid = h.query.get('client_uuid');
    const account = h.query.get('account_id');
    const signature = h.query.get('signature');
    if (!uuid || !account || !signature) return fail('signature', 'expected client_uuid, account_id and signature to check the signature, observed one missing');
    const expected = disconnectHookSignature(uuid, account, clientSecret);
    if (signature === expected) return pass('signature', 'HMAC-SHA256 of client_uuid|account_id under the secret key');
    if (signature.toLowerCase() === expected) return nonStrict('signature', 'the right HMAC-SHA256 of client_uuid|account_id, in upper-case hex (receivers compare the hex text)');
    const reversed = disconnectHookSignature(account, uuid, clientSecret) === signature.toLowerCase();
    return fail('signature', `expected hex HMAC-SHA256 of "<client_uuid>|<account_id>" under the secret key, observed another value${reversed ? ' (it signs "<account_id>|<client_uuid>")' : ''}`);
  };
}

/**
 * `name` is present; whether it equals `expected` is recorded, not judged (REQ-4.1-hook-client-id: the spec names the
 * hook's client_id but not which id it carries; the integration is identified by client_uuid, §5.3; K32).
 */
export function hookParameterRecorded(name: string, expected: string, what: string): HookCheck {
  return (h) => {
    const value = h.query.get(name);
    if (!value) return fail(name, `expected a ${name} parameter, observed ${h.query.has(name) ? 'an empty one' : 'none'}`);
    return value === expected ? pass(name, `${name} is ${what}`) : observed(name, `${name} is present but not ${what} (the spec does not say which id it carries), recorded`);
  };
}

/**
 * The signature does not verify under `secret` (a key that must no longer sign: §2.1, after regeneration "every
 * configuration that holds the old key must be updated"). A hook without the parameters to check is judged elsewhere.
 */
export function hookSignatureNotUnder(secret: string, what: string): HookCheck {
  return (h) => {
    const uuid = h.query.get('client_uuid');
    const account = h.query.get('account_id');
    const signature = h.query.get('signature');
    if (!uuid || !account || !signature) return fail(`not signed with ${what}`, 'expected client_uuid, account_id and signature to check the signature, observed one missing');
    return signature.toLowerCase() === disconnectHookSignature(uuid, account, secret)
      ? fail(`not signed with ${what}`, `expected a signature that no longer verifies under ${what}, observed one that does`)
      : pass(`not signed with ${what}`, `the signature does not verify under ${what}`);
  };
}
