/**
 * §4.1 Access-granting page, hardened against other sites (RFC 6749 §10.12, §3.1.2.3) and held to its account choice
 * (behaviour 2): a forged Allow grants nothing, a redirect_uri added to the page's address is never followed, only
 * the accounts the user administers are offered; and what a mode the spec does not name does, recorded. Driven in
 * Chromium as the administrator (the control API's login, else ADMIN_LOGIN), the integration's origin and an
 * attacker's intercepted, never contacted.
 */
import {
  type AccountRoles, accountRoles, accountsNotOffered, accountsOffered, allowInUnknownMode, allowWithForeignRedirectUri, ATTACKER_ORIGIN, defineSpec, exchangeRule,
  type ForeignRedirectView, forgedAllows, type ForgedDecisionView, FOREIGN_REDIRECT_URI, noCodeGranted, offeredAccounts, type OfferedAccountsView,
  originNotContacted, type RedirectView, redirectWindowObserved, scenarioRule, step, UNKNOWN_MODE,
} from './kit.js';

const BROWSER = ['browser'] as const;

type Forged = { crossSite: ForgedDecisionView; withoutToken: ForgedDecisionView };

export default defineSpec({
  section: '4.1',
  title: 'Access-granting page: forgery, foreign redirects and the account choice',
  level: 'must',
  rules: [
    scenarioRule<Forged>(
      { id: 'oauth.page.allow-csrf', requires: [...BROWSER], needs: ['login'], title: 'An Allow posted from another site, or without the page\'s anti-forgery token, grants no code',
        reading: 'RFC 6749 §10.12: the authorization endpoint must be protected against CSRF, so that no client obtains a grant without the user\'s explicit consent. Logged in, the kit reads the page\'s Allow form; a page of another origin (the integration\'s) then posts its fields without the hidden fields that are no §4.1 parameter (the candidate anti-forgery token, which another site cannot know), the browser sending what it sends cross-site (SameSite cookies withheld); then the user\'s own page posts its form with those fields removed (not tried when the form has none: its defence is then not a form token). Neither may lead to the Redirect URI with a code; an error page, a login, or a redirect with an error pass.' },
      {
        setup: (t) => forgedAllows(t, `csrf-${t.runId}`),
        steps: [
          step('from another origin', async (_t, f) => f.crossSite, [noCodeGranted('an Allow posted from another origin')]),
          step('without the form token', async (_t, f) => f.withoutToken, [noCodeGranted('an Allow posted without the form\'s anti-forgery fields')]),
        ],
      },
    ),
    exchangeRule<ForeignRedirectView>(
      { id: 'oauth.page.registered-redirect-only', requires: [...BROWSER], needs: ['login'], title: 'A redirect_uri added to the page\'s address is never followed: Allow leads to the registered Redirect URI or nowhere',
        reading: `RFC 6749 §3.1.2.3 and §10.6: the page redirects only to the Redirect URI registered for the integration (§2.1); the §4.1 page takes no redirect_uri. Opened with redirect_uri=${FOREIGN_REDIRECT_URI} added, logged in, Allow: the browser must never go to ${ATTACKER_ORIGIN} (routed and recorded, never contacted); reaching the registered Redirect URI, refusing the address, or going nowhere pass.` },
      { send: (t) => allowWithForeignRedirectUri(t), expect: [originNotContacted(ATTACKER_ORIGIN)] },
    ),
    exchangeRule<RedirectView & { refused?: string }>(
      { id: 'oauth.page.unknown-mode', level: 'info', requires: [...BROWSER], needs: ['login'], title: 'Records which window reaches the Redirect URI after Allow with a mode the spec does not name',
        reading: `§4.1 names the modes popup and post_message only; what another mode does is not stated. The integration's window opens the page in a popup with mode=${UNKNOWN_MODE}; after login and Allow, the window that reached the Redirect URI (or none) is recorded.`,
        covers: ['4.1/Access-granting page/mode'] },
      { send: (t) => allowInUnknownMode(t), expect: [redirectWindowObserved(`mode=${UNKNOWN_MODE}`)] },
    ),
    exchangeRule<OfferedAccountsView, AccountRoles>(
      { id: 'oauth.page.admin-accounts-only', requires: [...BROWSER], needs: ['login', 'member-account'], title: 'The page offers the accounts where the user is an administrator, and none where he is only a member',
        reading: '§4.1 behaviour 2: "the user picks among accounts where he is an administrator". The accounts the page offers (its account choice) are compared with the user\'s roles: from the control API, every administrator account offered and no member one; without it, the account named by MEMBER_ACCOUNT (by id, or by domain in the choice\'s label) must not be offered.' },
      {
        setup: (t) => accountRoles(t),
        send: (t) => offeredAccounts(t),
        expect: (_t, roles) => [
          accountsNotOffered(roles.members, 'account where the user is only a member'),
          ...(roles.admins ? [accountsOffered(roles.admins, 'every account where the user is an administrator')] : []),
        ],
      },
    ),
  ],
});
