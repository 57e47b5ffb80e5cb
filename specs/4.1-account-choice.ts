/**
 * §4.1: Allow installs the integration in the account the user chose; the token it yields belongs to that account.
 */
import { accountRequest, accounts, defineSpec, equals, field, type HttpResponse, sweepRule, tokensIn } from './kit.js';

export default defineSpec({
  section: '4.1',
  title: 'Access granting: the chosen account',
  level: 'must',
  rules: [
    sweepRule<number, HttpResponse, readonly number[]>(
      { id: 'oauth.allow.installs-in-chosen-account', requires: [], needs: ['consent'],
        title: 'Allow in each account where the user is an administrator yields a token whose /api/v4/account is that account',
        reading: '§4.1: the user picks an account where he is an administrator and Allow installs the integration there; the code exchanged, /api/v4/account with the token names the chosen account\'s id. The accounts and the choice come from the control API (it acts as the user), else from the page driven in Chromium as ADMIN_LOGIN (it offers only the accounts the user administers).' },
      {
        setup: async (t) => (await accounts(t)).filter((a, i) => i === 0 || a.admin_role === 'administrator').map((a) => a.id),
        named: (_t, ids) => ids,
        send: async (t, accountId) => t.send(accountRequest(t.target, (await tokensIn(t, accountId)).access_token)),
        expect: (_t, accountId) => [field('id', equals(accountId, 'the chosen account'))],
        label: (accountId) => `account ${accountId}`,
      },
    ),
  ],
});
