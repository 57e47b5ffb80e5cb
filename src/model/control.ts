/**
 * The control API of a target (docs/design.md §5, the emulator's docs/control-api.md), as rules see it: plumbing that
 * acts as a user, an administrator or a clock. src/targets/control.ts implements it over HTTP.
 */

export interface ConsentOptions {
  readonly decision?: 'allow' | 'deny';
  readonly state?: string;
  readonly clientId?: string;
  readonly [extra: string]: unknown;
}

export interface ConsentResult {
  readonly location: string;
  readonly code?: string;
}

export interface ControlApi {
  /** One control call; a refusal throws ControlError (src/errors.ts). */
  call<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** Acts as the user on the access-granting page; with `allow`, the answer carries a fresh authorization code. */
  consent(options?: ConsentOptions): Promise<ConsentResult>;
  /** A fresh authorization code for the configured integration. */
  freshCode(): Promise<string>;
  /** The target's clock, Unix seconds. */
  now(): Promise<number>;
  advanceClock(seconds: number): Promise<number>;
}
