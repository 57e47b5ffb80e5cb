/**
 * §4.1: Allow installs the integration in the account the user chose; the token it yields belongs to that account.
 */
import { accountIdRecorded, accounts, defineSpec, grantAt, type HttpResponse, status, sweepRule } from './kit.js';

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
        setup: async (t) => (await accounts(t)).filter((a, i) => i === 0 || a.admin_role === 'administrator').map((a) => a.id),
        named: (_t, ids) => ids,
        send: (t, accountId) => grantAt(t, accountId),
        expect: (_t, accountId) => [status(200), accountIdRecorded(accountId)],
        label: (accountId) => `account ${accountId}`,
      },
    ),
  ],
});
