/**
 * What every route module receives: one emulator instance's clock, world, credentials and fault switches.
 * Route modules are fastify plugins taking `{ ctx }`, so later modules (chat, list filtering, the access-granting
 * page) plug in the same way without touching the others.
 */
import type { Clock } from './clock.js';
import type { FaultSwitches } from './faults.js';
import type { Addresses } from './shape.js';
import type { CredentialStore, SecretLedger } from './state.js';
import type { TrafficLogs } from './traffic.js';
import type { VariationSwitches } from './variations.js';
import type { World } from './world.js';

export interface EmulatorContext {
  readonly clock: Clock;
  readonly faults: FaultSwitches;
  /** Behaviours the spec allows that the emulator does not show by default (./variations.ts). */
  readonly variations: VariationSwitches;
  readonly world: World;
  readonly store: CredentialStore;
  readonly secrets: SecretLedger;
  /** Arrival times of requests, and the optional server-side rate limit. */
  readonly traffic: TrafficLogs;
  /** The instance's shape and account domain: where each account and the chat interface are served (./shape.ts). */
  readonly addresses: Addresses;
  /** `http://host:port` of this instance, known once it listens. */
  baseUrl(): string;
  /** Route modules that keep state of their own register here how to clear it on a control reset. */
  onReset(clear: () => void): void;
  /**
   * §6 last line, §3.2: when a user disconnects the integration in an account, modules that hold per-account state
   * (the chat channel connections) drop it. The access-lifecycle module emits; the chat module listens.
   */
  onIntegrationDisconnected(listener: (accountId: number) => void): void;
  integrationDisconnected(accountId: number): void;
  /**
   * Route modules that keep state of their own register here how to record it as the baseline: the state a control
   * reset returns to (the start state until `markBaseline`).
   */
  onBaseline(mark: () => void): void;
  /**
   * The current credentials and module state become what a reset restores: `conformance emulator` marks the state
   * once it has made the settings it prints (a long-lived token, channels, a secret), so they survive a reset.
   */
  markBaseline(): void;
  /** Back to the baseline: issued credentials, module state, faults, variations and clock. The world stays. */
  reset(): void;
}

export interface RouteOptions {
  readonly ctx: EmulatorContext;
}

/** host:port of the instance: what links and tokens name when a request names no usable host (./origin.ts). */
export function hostOf(ctx: EmulatorContext): string {
  return new URL(ctx.baseUrl()).host;
}
