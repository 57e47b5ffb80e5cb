/**
 * Which account a bearer reads at BASE_URL (GET /api/v4/account): its id and subdomain, as the account answers them,
 * or why the answer named none. The run records it for each of its bearers (src/runner/target-accounts.ts), so that
 * a certificate binds the account the target said it is, not only its URLs.
 */
import type { HttpRequest, HttpResponse } from '../model/http.js';
import type { TargetConfig } from '../model/target.js';
import { accountRequest } from '../protocol/oauth.js';

export type AccountIdentity = { readonly id: number | string; readonly subdomain?: string } | { readonly error: string };

export async function accountIdentity(target: TargetConfig, bearer: string, send: (req: HttpRequest) => Promise<HttpResponse>): Promise<AccountIdentity> {
  const res = await send(accountRequest(target, bearer));
  let body: unknown;
  try {
    body = JSON.parse(res.text) as unknown;
  } catch {
    body = undefined;
  }
  const account = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const id = account?.id;
  if (res.status !== 200 || (typeof id !== 'number' && typeof id !== 'string')) return { error: `GET /api/v4/account answered ${res.status} without the account's id` };
  return { id, ...(typeof account!.subdomain === 'string' ? { subdomain: account!.subdomain } : {}) };
}
