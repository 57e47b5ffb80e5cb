/**
 * Installation state of the access lifecycle (§2.1, §3.1, §4.1, §6): which integration is installed in which
 * account, which accounts the access-granting page offers, and the secret key's regeneration. Kept per emulator
 * instance beside the context (no new context field), cleared on a control reset like any module state.
 */
import type { EmulatorContext } from '../context.js';
import { alphanumericSecret } from '../random.js';
import type { Account, Integration } from '../world.js';
import { sameSecret } from './params.js';

interface LifecycleState {
  /** `<client_id>|<account_id>` of every installation. */
  readonly installations: Set<string>;
  /** The secret each integration had before its last regeneration (only the `old-secret-*` and `hook-signed-with-old-secret` faults read it). */
  readonly retiredSecrets: Map<string, string>;
  /** Login sessions of the access-granting page: session id → user id and its form token. */
  readonly sessions: Map<string, { readonly userId: number; readonly formToken: string }>;
}

const STATES = new WeakMap<EmulatorContext, LifecycleState>();

const key = (clientId: string, accountId: number) => `${clientId}|${accountId}`;

function initialInstallations(ctx: EmulatorContext): string[] {
  const { integration, privateIntegration, account } = ctx.world;
  // Both integrations belong to the developer account and start installed there.
  return [key(integration.clientId, account.id), key(privateIntegration.clientId, account.id)];
}

export function lifecycle(ctx: EmulatorContext): LifecycleState {
  let state = STATES.get(ctx);
  if (!state) {
    const created: LifecycleState = { installations: new Set(initialInstallations(ctx)), retiredSecrets: new Map(), sessions: new Map() };
    state = created;
    STATES.set(ctx, created);
    // The baseline: installations, retired secrets, and each integration's secret key and hook URL (a reset returns to
    // them; until a baseline is marked, to the start state).
    const integrations = [ctx.world.integration, ctx.world.privateIntegration];
    const mark = () => ({
      installations: [...created.installations],
      retired: [...created.retiredSecrets],
      keys: integrations.map((i) => ({ secret: i.clientSecret, hookUrl: i.hookUrl })),
    });
    let baseline = mark();
    ctx.onBaseline(() => { baseline = mark(); });
    ctx.onReset(() => {
      created.installations.clear();
      for (const k of baseline.installations) created.installations.add(k);
      created.retiredSecrets.clear();
      for (const [k, v] of baseline.retired) created.retiredSecrets.set(k, v);
      created.sessions.clear();
      integrations.forEach((integration, n) => {
        const { secret, hookUrl } = baseline.keys[n]!;
        integration.clientSecret = secret;
        if (hookUrl === undefined) delete integration.hookUrl;
        else integration.hookUrl = hookUrl;
      });
    });
  }
  return state;
}

export function integrationById(ctx: EmulatorContext, clientId: string): Integration | undefined {
  const { integration, privateIntegration } = ctx.world;
  if (clientId === integration.clientId) return integration;
  if (clientId === privateIntegration.clientId) return privateIntegration;
  return undefined;
}

export function allAccounts(ctx: EmulatorContext): readonly Account[] {
  return [ctx.world.account, ...ctx.world.otherAccounts];
}

export function accountById(ctx: EmulatorContext, id: number): Account | undefined {
  return allAccounts(ctx).find((a) => a.id === id);
}

/** §4.1 behaviour 2: the accounts where the user is an administrator; for a private integration exactly its own one. */
export function accountChoices(ctx: EmulatorContext, integration: Integration): readonly Account[] {
  const adminAccounts = ctx.faults.isOn('page-offers-member-accounts')
    ? allAccounts(ctx)
    : [ctx.world.account, ...ctx.world.otherAccounts.filter((a) => a.adminRole === 'administrator')];
  if (integration.isPrivate && !ctx.faults.isOn('private-lists-all-accounts')) return [ctx.world.account];
  return adminAccounts;
}

export function platformOf(account: Account): 1 | 2 {
  return account.platform ?? 2;
}

export function install(ctx: EmulatorContext, clientId: string, accountId: number): void {
  lifecycle(ctx).installations.add(key(clientId, accountId));
}

/** Removes the installation; false when there was none. */
export function uninstall(ctx: EmulatorContext, clientId: string, accountId: number): boolean {
  return lifecycle(ctx).installations.delete(key(clientId, accountId));
}

export function isInstalled(ctx: EmulatorContext, clientId: string, accountId: number): boolean {
  return lifecycle(ctx).installations.has(key(clientId, accountId));
}

/** The secret key check of the token endpoint (constant time). */
export function secretMatches(ctx: EmulatorContext, integration: Integration, given: string, grant: 'code' | 'refresh' = 'code'): boolean {
  if (sameSecret(given, integration.clientSecret)) return true;
  // Only for the `refresh-empty-secret-as-absent` fault: an empty secret on refresh is read as none sent (the secret is optional there).
  if (grant === 'refresh' && given === '' && ctx.faults.isOn('refresh-empty-secret-as-absent')) return true;
  const retired = lifecycle(ctx).retiredSecrets.get(integration.clientId);
  const retiredAccepted = ctx.faults.isOn('old-secret-still-valid') || (grant === 'refresh' && ctx.faults.isOn('old-secret-valid-on-refresh'));
  return retiredAccepted && retired !== undefined && sameSecret(given, retired);
}

/** The secret the integration had before its last regeneration, if it was regenerated (read only by faults). */
export function retiredSecret(ctx: EmulatorContext, clientId: string): string | undefined {
  return lifecycle(ctx).retiredSecrets.get(clientId);
}

/** §2.1: a new secret key; the old one stops working at once. `value` sets a given one (restoring a kit's start state). */
export function regenerateSecret(ctx: EmulatorContext, integration: Integration, value?: string): string {
  lifecycle(ctx).retiredSecrets.set(integration.clientId, integration.clientSecret);
  integration.clientSecret = ctx.secrets.add(value ?? alphanumericSecret(64));
  return integration.clientSecret;
}
