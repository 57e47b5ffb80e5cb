/**
 * Whether a revoked credential is still refused. One place for the faults that forget one cause of revocation, so
 * the bearer check and the refresh grant agree on it.
 */
import type { EmulatorContext } from '../context.js';
import type { RevocationCause } from '../state.js';

export interface Revocable {
  readonly kind?: 'access' | 'long_lived';
  readonly accountId: number;
  readonly revokedAtMs?: number;
  readonly revokedBy?: RevocationCause;
}

/**
 * The credential is revoked and that revocation holds (the faults each let one cause slip). `addressed`: the account
 * whose own address the request called (none for the root address).
 */
export function isRevoked(ctx: EmulatorContext, record: Revocable, what: 'refresh' | 'bearer', addressed?: { readonly id: number }): boolean {
  if (record.revokedAtMs === undefined) return false;
  const f = ctx.faults;
  // Only for the `*-works-at-own-address` faults: the revocation was written to the root address's store, not to the
  // account's own, so only a probe at the account's own address shows it did not hold.
  const atOwnAddress = addressed !== undefined && addressed.id === record.accountId;
  switch (record.revokedBy) {
    case 'deactivation':
      if (atOwnAddress && f.isOn('deactivated-token-works-at-own-address')) return false;
      if (what === 'refresh' && f.isOn('deactivation-keeps-refresh-tokens')) return false;
      if (record.kind === 'long_lived' && f.isOn('deactivation-keeps-long-lived')) return false;
      return true;
    case 'disconnect':
      if (atOwnAddress && f.isOn('disconnected-token-works-at-own-address')) return false;
      return !f.isOn('disconnect-keeps-tokens') && !f.isOn('disconnect-keeps-tokens-root-bound');
    case 'code-reuse':
      return true;
    default:
      // Only for the `long-lived-revocation-ignored` fault: a revocation under issued accesses is recorded but not read.
      return !(record.kind === 'long_lived' && f.isOn('long-lived-revocation-ignored'));
  }
}

/**
 * Whether the root address refuses a credential of `accountId`: it serves the developer account alone, as a service of
 * one sub-domain per account does, under the `tokens-bound-to-account` variation (the spec allows it: {base_url} is
 * "the address of one customer account") and the `disconnect-keeps-tokens-root-bound` fault (where a probe sent to the
 * root instead of the account's own address learns nothing about a revocation).
 */
function rootBoundElsewhere(ctx: EmulatorContext, accountId: number): boolean {
  const bound = ctx.variations.isOn('tokens-bound-to-account') || ctx.faults.isOn('disconnect-keeps-tokens-root-bound');
  return bound && accountId !== ctx.world.account.id;
}

/**
 * Whether the address called (`addressed`, none for the root) refuses a credential granted in `accountId`: one check for
 * the code grant, the refresh grant and the bearer, so the three agree. An account's own address serves its own
 * credentials alone unless `across` (the faults and variations that let another account's through); the root, as
 * rootBoundElsewhere says.
 */
export function grantedElsewhere(ctx: EmulatorContext, addressed: { readonly id: number } | undefined, accountId: number, across: boolean): boolean {
  return addressed ? addressed.id !== accountId && !across : rootBoundElsewhere(ctx, accountId);
}
