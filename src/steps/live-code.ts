/**
 * Authorization codes and consent, from whatever the target offers: its control API when it has one; else the
 * access-granting page driven in Chromium as the administrator (src/steps/live-grant.ts); else, for fresh codes, the
 * one AUTH_CODE of the settings, for the one rule the run keeps it for (src/targets/needs.ts). Without any of them the
 * rule is skipped with the setting that would let it run (the runner has normally skipped it before it started).
 */
import { Precondition, SkipRule } from '../errors.js';
import type { RuleContext, RunResource } from '../model/context.js';
import { requireNeed, supplyOf } from '../targets/needs.js';
import { grantDesk, type PageAccount } from './live-grant.js';

export type { PageAccount };

export interface ConsentRequest {
  readonly decision?: 'allow' | 'deny';
  readonly state?: string;
  readonly accountId?: number;
  /** Another integration than CLIENT_ID. */
  readonly clientId?: string;
}

/** Acts as the user on the access-granting page (Allow by default) and returns where the browser was sent. */
export async function consentLocation(t: RuleContext, request: ConsentRequest = {}): Promise<string> {
  const decision = request.decision ?? 'allow';
  if (requireNeed('consent', t.target) === 'control') {
    const { location } = await t.control.consent({
      decision,
      ...(request.state === undefined ? {} : { state: request.state }),
      ...(request.accountId === undefined ? {} : { account_id: request.accountId }),
      ...(request.clientId === undefined ? {} : { clientId: request.clientId }),
    });
    return location;
  }
  return (await grantDesk(t, redirectUriOf(t, request.clientId))).grant({ ...request, decision });
}

/** The Redirect URI the page sends the browser to for `clientId`: the second integration's own, else CLIENT_ID's. */
function redirectUriOf(t: RuleContext, clientId: string | undefined): string | undefined {
  const second = t.credentials.secondClient;
  return clientId !== undefined && clientId === second?.clientId ? second.redirectUri : undefined;
}

/** The single AUTH_CODE of the settings, handed out once per run. */
class OneCode implements RunResource {
  #code: string | undefined;

  constructor(code: string) {
    this.#code = code;
  }

  take(): string | undefined {
    const code = this.#code;
    this.#code = undefined;
    return code;
  }

  async close(): Promise<void> {}
}

/** A fresh authorization code for the configured integration (or `clientId`), taught to the masker. */
export async function freshCode(t: RuleContext, options: { clientId?: string } = {}): Promise<string> {
  if (t.target.capabilities.includes('control')) {
    if (!options.clientId) return t.control.freshCode();
    return codeOf((await t.control.consent({ decision: 'allow', clientId: options.clientId })).location);
  }
  const page = supplyOf('fresh-code', { id: '' }, t.target);
  if ('gap' in page) {
    const authCode = t.credentials.authCode;
    if (authCode && !options.clientId) {
      const code = (await t.resource('auth-code', async () => new OneCode(authCode))).take();
      if (code) return code;
      throw new SkipRule(`needs fresh-code: AUTH_CODE was used by ${t.target.authCodeRule ?? 'another rule'}; ${page.gap}`);
    }
    throw new SkipRule(`needs fresh-code: ${page.gap}`);
  }
  const location = await consentLocation(t, { decision: 'allow', ...(options.clientId ? { clientId: options.clientId } : {}) });
  const code = codeOf(location);
  t.masker.add(code);
  return code;
}

function codeOf(location: string): string {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new Precondition(`Allow redirected to something that is not a URL: ${location.slice(0, 80)}`);
  }
  const code = url.searchParams.get('code');
  if (!code) throw new Precondition(`Allow on the access-granting page redirected without a code (${url.searchParams.get('error') ?? 'no error either'})`);
  return code;
}

/** The accounts the user may pick on the page: the control API's list, or the page's own choices. */
export async function pageAccounts(t: RuleContext, clientId?: string): Promise<readonly PageAccount[]> {
  if (requireNeed('consent', t.target) === 'control') {
    const { accounts } = await t.control.call<{ accounts: { id: number; name?: string; subdomain?: string }[] }>('GET', '/accounts');
    return accounts.map((a) => ({ id: a.id, label: [a.name, a.subdomain && `(${a.subdomain})`].filter(Boolean).join(' ') || String(a.id) }));
  }
  return (await grantDesk(t)).accounts(clientId);
}
