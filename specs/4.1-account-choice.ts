/**
 * §4.1: Allow installs the integration in the account the user chose; the token it yields belongs to that account.
 */
import { accountIdRecorded, accounts, defineSpec, grantAt, type HttpResponse, refreshedGrantAt, status, sweepRule } from './kit.js';

/** The accounts where the user is an administrator (the developer account first), as the control API or the page lists them. */
const adminAccountIds = async (t: Parameters<typeof accounts>[0]) => (await accounts(t)).filter((a, i) => i === 0 || a.admin_role === 'administrator').map((a) => a.id);

export default defineSpec({
  section: '4.1',
  title: 'Access granting: the chosen account',
  level: 'must',
  rules: [
    sweepRule<number, HttpResponse, readonly number[]>(
      { id: 'oauth.allow.installs-in-chosen-account', requires: [], needs: ['consent'],
        title: 'Allow in each account where the user is an administrator yields a token that works at that account\'s address',
        reading: '§4.1: the user picks an account where he is an administrator and Allow installs the integration there. The code is exchanged and the token used at the chosen account\'s own {base_url} (§0: each account has its own; the control API\'s base_url, else the redirect\'s referer), where GET /api/v4/account must answer 200 (a refused exchange fails too: §3.1 demands it succeed). Its body is "not shown" (§4.1), so whether it names the chosen account\'s id is recorded (K33). The accounts and the choice come from the control API (it acts as the user), else from the page driven in Chromium as ADMIN_LOGIN (it offers only the accounts the user administers).' },
      {
        setup: adminAccountIds,
        named: (_t, ids) => ids,
        send: (t, accountId) => grantAt(t, accountId),
        expect: (_t, accountId) => [status(200), accountIdRecorded(accountId)],
        label: (accountId) => `account ${accountId}`,
      },
    ),
    sweepRule<number, HttpResponse, readonly number[]>(
      { id: 'oauth.refresh.same-account', section: '3.1', requires: [], needs: ['consent'],
        title: 'A refresh in each account where the user is an administrator yields a token that works at that account\'s address',
        reading: '§3.1: the refresh exchange issues new tokens of the same grant, so of the account the user chose (§4.1). The code of each account is exchanged and the pair refreshed at that account\'s own {base_url} (as oauth.allow.installs-in-chosen-account), and the refreshed access token used there: GET /api/v4/account must answer 200; a refused exchange or refresh fails too (§3.1 demands both succeed). The body is "not shown", so its id is recorded (K33).',
        covers: ['3.1/refresh token valid'] },
      {
        setup: adminAccountIds,
        named: (_t, ids) => ids,
        send: (t, accountId) => refreshedGrantAt(t, accountId),
        expect: (_t, accountId) => [status(200), accountIdRecorded(accountId)],
        label: (accountId) => `account ${accountId}`,
      },
    ),
  ],
});
