/**
 * The outcome of the access-granting page (§4.1 behaviour 3 and 4): the redirect to the Redirect URI, with a fresh
 * code on Allow and `error=access_denied` on Deny. Shared by the control API (acting as the user) and, later, by
 * the HTML page itself, so both produce exactly the same redirect.
 */
import { hostOf, type EmulatorContext } from '../context.js';
import { ProblemError } from '../errors.js';
import { issueCode } from './issue.js';

export interface ConsentDecision {
  readonly clientId: string;
  readonly decision: 'allow' | 'deny';
  /** Returned unchanged, and only if passed. */
  readonly state?: string;
}

export interface ConsentOutcome {
  readonly location: string;
  readonly code?: string;
}

/** `platform` 2: the emulated account lives on the global domain. */
const PLATFORM_GLOBAL = '2';

export function decideConsent(ctx: EmulatorContext, d: ConsentDecision): ConsentOutcome {
  const { integration, account, admin } = ctx.world;
  if (d.clientId !== integration.clientId) {
    throw new ProblemError({ status: 404, detail: 'No integration has this client_id' });
  }
  // URL keeps any query the registered Redirect URI already has and encodes what is added.
  const location = new URL(integration.redirectUri);
  const keepState = d.state !== undefined && !ctx.faults.isOn('drop-state');
  if (d.decision === 'deny') {
    location.searchParams.set('error', 'access_denied');
    if (keepState) location.searchParams.set('state', d.state!);
    return { location: location.toString() };
  }
  const code = issueCode(ctx, { clientId: integration.clientId, userId: admin.id, accountId: account.id });
  location.searchParams.set('code', code);
  location.searchParams.set('referer', hostOf(ctx));
  if (keepState) location.searchParams.set('state', d.state!);
  location.searchParams.set('platform', PLATFORM_GLOBAL);
  return { location: location.toString(), code };
}
