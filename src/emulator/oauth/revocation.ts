/**
 * Whether a revoked credential is still refused. One place for the faults that forget one cause of revocation, so
 * the bearer check and the refresh grant agree on it.
 */
import type { EmulatorContext } from '../context.js';
import type { RevocationCause } from '../state.js';

export interface Revocable {
  readonly kind?: 'access' | 'long_lived';
  readonly revokedAtMs?: number;
  readonly revokedBy?: RevocationCause;
}

/** The credential is revoked and that revocation holds (the faults each let one cause slip). */
export function isRevoked(ctx: EmulatorContext, record: Revocable, what: 'refresh' | 'bearer'): boolean {
  if (record.revokedAtMs === undefined) return false;
  const f = ctx.faults;
  switch (record.revokedBy) {
    case 'deactivation':
      if (what === 'refresh' && f.isOn('deactivation-keeps-refresh-tokens')) return false;
      if (record.kind === 'long_lived' && f.isOn('deactivation-keeps-long-lived')) return false;
      return true;
    case 'disconnect':
      return !f.isOn('disconnect-keeps-tokens') && !f.isOn('disconnect-keeps-tokens-root-bound');
    case 'code-reuse':
      return true;
    default:
      // Only for the `long-lived-revocation-ignored` fault: a revocation under issued accesses is recorded but not read.
      return !(record.kind === 'long_lived' && f.isOn('long-lived-revocation-ignored'));
  }
}

/**
 * Only for the `disconnect-keeps-tokens-root-bound` fault: the root address is the developer account's own, refusing
 * every other account's credentials there (as a service of one sub-domain per account does), so that a probe sent to
 * it instead of the account's own address learns nothing about a revocation.
 */
export function rootBoundElsewhere(ctx: EmulatorContext, accountId: number): boolean {
  return ctx.faults.isOn('disconnect-keeps-tokens-root-bound') && accountId !== ctx.world.account.id;
}
