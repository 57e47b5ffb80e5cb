/**
 * The disconnect hook (§5.3) for integrators: verify a received hook, or sign one to test a receiver.
 *
 * ```ts
 * import { verifyDisconnectHook } from 'conformance-kit/hook';
 * const result = verifyDisconnectHook(request.query, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
 * if (!result.ok) return reply.code(403).send(result.reason);
 * ```
 */
export { verifyDisconnectHook, type HookCredentials, type HookQuery, type HookVerification } from './verify.js';
export { disconnectHookSignature, disconnectHookSigningString, disconnectHookUrl, HOOK_PARAMETERS, signDisconnectHook, type HookParameter } from './sign.js';
export { HookListener, type ReceivedHook } from './listener.js';
