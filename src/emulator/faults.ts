/**
 * Test-only fault switches. Each one breaks exactly one behaviour of the reference implementation, so that every
 * conformance rule can be shown able to fail (a rule that cannot fail proves nothing). All are off by default;
 * they are switched through `startEmulator({ faults })`, `RunningEmulator.faults` or `POST /_control/faults`.
 */

export interface FaultInfo {
  readonly name: string;
  readonly description: string;
}

const defineFaults = <const T extends readonly FaultInfo[]>(list: T): T => list;

export const FAULTS = defineFaults([
  // Token exchange: request validation (§4.1, §3.1, §5.1)
  { name: 'accept-reused-code', description: 'An authorization code can be exchanged more than once.' },
  { name: 'no-revoke-on-code-reuse', description: 'A reused code is refused, but the tokens issued from it are not revoked (RFC 6749 §4.1.2).' },
  { name: 'accept-missing-code', description: 'A code grant without a code issues tokens for the administrator anyway.' },
  { name: 'accept-expired-code', description: 'The 20-minute age of an authorization code is not checked.' },
  { name: 'skip-redirect-uri-check', description: 'redirect_uri is not compared with the registered Redirect URI.' },
  { name: 'skip-client-id-check', description: 'Any client_id (or none) is accepted.' },
  { name: 'skip-client-secret-check', description: 'client_secret is not checked on the code grant (missing or wrong accepted).' },
  { name: 'accept-unknown-grant-type', description: 'An unknown or missing grant_type is treated as authorization_code.' },
  { name: 'accept-wrong-types', description: 'A number, array or object where a string is expected is coerced with String() and accepted.' },
  { name: 'reject-form-encoded', description: 'application/x-www-form-urlencoded token requests are refused with 400.' },
  // Token exchange: refresh grant (§2.2, §3.1)
  { name: 'reuse-old-refresh-token', description: 'An exchanged refresh token keeps working.' },
  { name: 'refresh-returns-same-token', description: 'The refresh exchange returns the same refresh token it was given (which stays valid).' },
  { name: 'refresh-requires-secret', description: 'A refresh exchange without client_secret is refused with 400.' },
  { name: 'new-refresh-token-dead', description: 'The refresh token returned by a refresh exchange is not stored, so it is refused when used.' },
  { name: 'accept-expired-refresh-token', description: 'The 3-month lifetime of a refresh token is not checked.' },
  // Token exchange: response shape (§2.3)
  { name: 'expires-in-as-string', description: 'expires_in is sent as a string ("86400").' },
  { name: 'drop-server-time', description: 'server_time is omitted from the token response.' },
  { name: 'server-time-in-ms', description: 'server_time is sent in milliseconds.' },
  { name: 'token-type-mac', description: 'token_type is "mac".' },
  { name: 'drop-refresh-token', description: 'refresh_token is omitted from the token response.' },
  { name: 'access-token-not-jwt', description: 'access_token is an opaque random string, not a JWT (it still works on the API).' },
  { name: 'token-response-text-plain', description: 'A successful token response is sent as text/plain.' },
  { name: 'nbf-in-future', description: 'Access tokens carry nbf five minutes ahead, so the API refuses them when they are fresh.' },
  { name: 'jwt-exp-mismatch', description: 'The JWT exp claim is one hour later than iat + expires_in.' },
  // Token exchange: errors (§7) and robustness
  { name: 'error-as-html', description: 'Token exchange errors are answered as text/html bodies.' },
  { name: 'error-status-200', description: 'Token exchange validation failures are answered 200 with the error JSON.' },
  { name: 'crash-on-malformed-body', description: 'An unparseable request body yields a 500.' },
  { name: 'echo-secret-in-error', description: 'Token exchange error bodies echo the received client_secret, code and refresh_token in detail.' },
  // Access-granting redirect (§4.1)
  { name: 'drop-state', description: 'The redirect after Allow or Deny leaves out the state that was passed.' },
  // Account API bearer checks (§5.1, §3.1)
  { name: 'bearer-not-checked', description: '/api/v4 accepts any bearer token, or none.' },
  { name: 'ignore-token-expiry', description: 'Expired access tokens are accepted.' },
  { name: 'accept-revoked-token', description: 'Revoked access tokens are accepted.' },
] as const);

export type FaultName = (typeof FAULTS)[number]['name'];

const KNOWN = new Set<string>(FAULTS.map((f) => f.name));

export function isFaultName(name: string): name is FaultName {
  return KNOWN.has(name);
}

export class UnknownFaultError extends Error {
  constructor(readonly unknown: readonly string[]) {
    super(`unknown fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  }
}

export class FaultSwitches {
  readonly #on = new Set<FaultName>();

  constructor(initial: readonly string[] = []) {
    this.set({ enable: initial });
  }

  isOn(name: FaultName): boolean {
    return this.#on.has(name);
  }

  enable(name: string): void {
    this.set({ enable: [name] });
  }

  disable(name: string): void {
    this.set({ disable: [name] });
  }

  /** Sorted in registry order, so answers are stable. */
  active(): string[] {
    return FAULTS.map((f) => f.name).filter((n) => this.#on.has(n));
  }

  /** All or nothing: one unknown name rejects the whole change, so a typo never leaves a half-applied set. */
  set(change: { enable?: readonly string[]; disable?: readonly string[] }): void {
    const names = [...(change.enable ?? []), ...(change.disable ?? [])];
    const unknown = names.filter((n) => !isFaultName(n));
    if (unknown.length > 0) throw new UnknownFaultError([...new Set(unknown)]);
    for (const n of change.enable ?? []) this.#on.add(n as FaultName);
    for (const n of change.disable ?? []) this.#on.delete(n as FaultName);
  }

  clear(): void {
    this.#on.clear();
  }
}
