/**
 * §4.1 Authorization and tokens: Access-granting page.
 *
 * §4.1 Access-granting page and the redirect it ends in (behaviour 1–5, §6 authorization redirect and widget
 * installation hook, §8 private integration account choice). The redirect rules act as the user through the control
 * API, else on the page in Chromium as the administrator (ADMIN_LOGIN); the page rules drive the real page in Chromium
 * (capability `browser`), with the integration's origin intercepted in the browser, never contacted.
 *
 * §4.1 Access-granting page, its security (RFC 6749 §4.1.2.1, §10.12, §10.13): an unknown or missing client_id sends
 * the browser nowhere, the page cannot be framed, odd query strings never get a 5xx; each Allow mints its own code and
 * Deny installs nothing (driven through the control API's consent, which makes the page's decision without a browser).
 *
 * §4.1: Allow installs the integration in the account the user chose; the token it yields belongs to that account.
 *
 * §4.1 Access-granting page, hardened against other sites (RFC 6749 §10.12, §3.1.2.3) and held to its account choice
 * (behaviour 2): a forged Allow grants nothing, a redirect_uri added to the page's address is never followed, only
 * the accounts the user administers are offered; and what a mode the spec does not name does, recorded. Driven in
 * Chromium as the administrator (the control API's login, else ADMIN_LOGIN), the integration's origin and an
 * attacker's intercepted, never contacted.
 */
import fc from 'fast-check';
import {
  accountChoices, type AccountChoicesView, accountIdRecorded, accountLabels, distinct, refererNames, type AccountRoles, accountRoles, accounts, accountsNotOffered, accountsOffered, allDistinct, allowInPopup, allowInUnknownMode, allowWithForeignRedirectUri, allowWithPostMessage, ATTACKER_ORIGIN, type ControlAccount, decideOnPage, defineGroup, eachStep, EVERY_KIND_STATE, exchangeRule, expectedIntegrationName, FOREIGN_REDIRECT_URI, type ForeignRedirectView, forgedAllows, freshCode, grantAt, type HttpResponse, integrationNameShown, type IntegrationView, loginFormShown, type LoginView, logoLoaded, LONG_STATES, noCodeGranted, noGrantBeforeLogin, noRedirect, noServerError, notFramable, notInstalledIn, offeredAccounts, type OfferedAccountsView, oneAccountOffered, originNotContacted, pageAfterLogin, pageWithoutSession, parameterAbsent, parameterEquals, permissionsListed, popupClosed, postMessageReceived, privateClientId, propertyRule, redirectedIn, redirectQuery, redirectReached, type RedirectView, redirectWindowObserved, scenarioRule, sideAccount, type StateCase, stateCases, stateReturned, status, step, sweepRule, UNKNOWN_MODE,
} from '../kit.js';
import { adminAccountIds } from '../fixtures/oauth.js';
import { allowChecks, paramsOf, UNKNOWN_CLIENT_QUERIES, ALLOWS, type Integrations, type Forged } from './support.js';

export default defineGroup({
  heading: 'Access-granting page',
  defaults: { requires: ['browser'], needs: ['login'] },
  rules: [
    sweepRule<{ state: StateCase; decision: 'allow' | 'deny' }, URLSearchParams>(
      { id: 'oauth.redirect.state-round-trip', requires: [], needs: ['consent'], title: 'state comes back unchanged in the redirect, also with characters that need escaping',
        reading: '§4.1: state is "returned unchanged". Compared after URL decoding of the redirect\'s query; each case names the kind of character it carries. Checked on Allow and on Deny, with states of 172, 500 and 2,000 characters every run (the spec states no limit).',
        covers: ['4.1/Access-granting page/state', '6/Authorization redirect'] },
      {
        // Long states (172, 500 and 2,000 characters), and one with a character of every kind, on both decisions every
        // run, whatever the seed draws: a short column or buffer cuts the first, an encoding step too many or too few
        // (percent, HTML) shows in the second.
        named: (['allow', 'deny'] as const).flatMap((decision) => [
          ...LONG_STATES.map((value) => ({ state: { kind: 'long' as const, value }, decision })),
          { state: { kind: 'query-delimiters' as const, value: EVERY_KIND_STATE }, decision },
        ]),
        cases: () => fc.record({ state: stateCases, decision: fc.constantFrom('allow' as const, 'deny' as const) }),
        send: (t, { state, decision }) => redirectQuery(t, { state: state.value, decision }),
        expect: (_t, { state }) => [stateReturned(state.value)],
        label: ({ state, decision }) => `${state.kind}${state.kind === 'long' ? ` ${state.value.length}` : ''} (${decision})`,
      },
    ),
    scenarioRule(
      { id: 'oauth.redirect.no-state', requires: [], needs: ['consent'], title: 'Without a state, the redirect carries no state parameter (Allow and Deny)',
        reading: '§4.1: "If not passed, it is not returned". An empty state= is non_strict (returned, but carrying nothing, K5); a state the integration never sent fails.',
        covers: ['4.1/Access-granting page/state', '6/Authorization redirect'] },
      {
        steps: [
          step<undefined, URLSearchParams>('', (t) => redirectQuery(t, { decision: 'allow' }), [parameterAbsent('state', 'none was passed (Allow)', 'empty')]),
          step<undefined, URLSearchParams>('', (t) => redirectQuery(t, { decision: 'deny' }), [parameterAbsent('state', 'none was passed (Deny)', 'empty')]),
        ],
      },
    ),
    scenarioRule(
      { id: 'oauth.redirect.allow-parameters', requires: [], needs: ['consent'], title: 'Allow redirects with code, referer and platform 1 or 2, and no from_widget',
        reading: '§4.1 behaviour 3. Checked for every account the user can pick (the control API lists them with their domain; without one, the accounts the page offers); platform must be 1 or 2, and 1 exactly for an account the control API places on the regional domain. referer ("address of the user\'s account") must name the chosen account\'s own address where the control API names it (base_url; compared as host and path, with or without a scheme); without it, the referers of two different accounts must differ. from_widget with a falsy value (0, false, empty) is non_strict (present, but saying no widget, K6).',
        covers: ['6/Authorization redirect', '4.1/Access-granting page/client_id'] },
      {
        steps: [
          eachStep<undefined, ControlAccount, URLSearchParams>({
            items: async (t) => (await accounts(t)).filter((a) => a.admin_role !== 'member'),
            label: (account) => `account ${account.id}`,
            observe: (t, _f, account) => redirectQuery(t, { accountId: account.id }),
            expect: (account) => [
              ...allowChecks,
              ...(account.platform === 1 || account.platform === 2 ? [parameterEquals('platform', String(account.platform))] : []),
              ...(typeof account.base_url === 'string' && account.base_url ? [refererNames(account.base_url, `account ${account.id}'s address`)] : []),
            ],
          }),
          // Without the control API's addresses, what is known live: two accounts have two addresses, so two referers.
          step<undefined, readonly string[]>('referers of two accounts', async (t) => {
            const two = (await accounts(t)).filter((a) => a.admin_role !== 'member').slice(0, 2);
            return Promise.all(two.map(async (a) => (await redirectQuery(t, { accountId: a.id })).get('referer') ?? ''));
          }, [distinct('referers', 'the referers of two different accounts')]),
        ],
      },
    ),
    exchangeRule<URLSearchParams>(
      { id: 'oauth.redirect.deny', requires: [], needs: ['consent'], title: 'Deny redirects with error=access_denied, the state, and no code',
        reading: '§4.1 behaviour 4 and §7 other cases 1.', covers: ['6/Authorization redirect', '4.1/Access-granting page/state'] },
      {
        send: (t) => redirectQuery(t, { decision: 'deny', state: `deny-${t.runId}` }),
        expect: (t) => [parameterEquals('error', 'access_denied'), stateReturned(`deny-${t.runId}`), parameterAbsent('code', 'the user denied')],
      },
    ),
    // ---- the real page, in Chromium ----
    exchangeRule<LoginView>(
      { id: 'oauth.page.login-required', title: 'The access-granting page asks a user without a session to log in before offering any account',
        reading: '§4.1 behaviour 2. A fresh browser context has no session; the page must show a password field and no Allow button.',
        covers: ['4.1/Access-granting page/client_id'] },
      { send: (t) => pageWithoutSession(t), expect: [loginFormShown, noGrantBeforeLogin] },
    ),
    exchangeRule<IntegrationView, string>(
      { id: 'oauth.page.shows-integration', needs: ['login', 'integration-name'], title: 'The access-granting page shows the integration logo, name and requested permissions',
        reading: '§4.1 behaviour 1 and §2.1 (name "shown in the access dialog"). The logo must be an image that loads; the permissions a non-empty list.',
        covers: ['2.1/Name', '2.1/Icon', '2.1/Permissions', '8/Integration icon'] },
      {
        setup: (t) => expectedIntegrationName(t),
        send: (t) => pageAfterLogin(t),
        expect: (_t, name) => [integrationNameShown(name), logoLoaded, permissionsListed],
      },
    ),
    scenarioRule<RedirectView & { popupClosed: boolean }>(
      { id: 'oauth.page.allow-popup', title: 'Allow in popup mode: the grant window closes and the main window goes to the Redirect URI with a code',
        reading: '§4.1 mode popup. The integration\'s window opens the page in a popup (a click); after login and Allow, the main window must reach the Redirect URI with code, referer and platform, and the popup must close.',
        covers: ['4.1/Access-granting page/mode', '6/Authorization redirect'] },
      {
        setup: (t) => allowInPopup(t),
        steps: [
          step('', async (_t, v) => v, [redirectedIn('main', 'the main window to go to the Redirect URI')]),
          step('', paramsOf, allowChecks),
          step('', async (_t, v) => v, [popupClosed]),
        ],
      },
    ),
    scenarioRule<RedirectView & { messages: readonly unknown[] }>(
      { id: 'oauth.page.allow-post-message', title: 'Allow in post_message mode: the redirect happens inside the opened window, which can report to its opener',
        reading: '§4.1 mode post_message. The opened window must reach the Redirect URI itself while the main window stays. Whether the main window receives a postMessage is recorded: the spec says the window "may report the result" (K7; an opener severed by COOP gets none).',
        covers: ['4.1/Access-granting page/mode', '6/Authorization redirect'] },
      {
        setup: (t) => allowWithPostMessage(t, `pm-${t.runId}`),
        steps: [
          step('', async (_t, v) => v, [redirectedIn('popup', 'the opened window to go to the Redirect URI')]),
          step('', paramsOf, (t) => [...allowChecks, stateReturned(`pm-${t.runId}`)]),
          step('', async (_t, v) => v, [postMessageReceived]),
        ],
      },
    ),
    scenarioRule<RedirectView>(
      { id: 'oauth.page.deny', title: 'Deny on the page redirects with error=access_denied and the state',
        reading: '§4.1 behaviour 4, through the real page.', covers: ['6/Authorization redirect', '4.1/Access-granting page/state'] },
      {
        setup: (t) => decideOnPage(t, 'deny', `deny-${t.runId}`),
        steps: [
          step('', async (_t, v) => v, [redirectReached('Deny')]),
          step('', paramsOf, (t) => [parameterEquals('error', 'access_denied'), stateReturned(`deny-${t.runId}`), parameterAbsent('code', 'the user denied')]),
        ],
      },
    ),
    scenarioRule<RedirectView>(
      { id: 'oauth.page.state-round-trip', title: 'A state with characters that need escaping survives the real page unchanged',
        reading: `§4.1: state is returned unchanged. One state carrying every kind of tricky character (${JSON.stringify(EVERY_KIND_STATE)}), sent URL-encoded in the page address, through login and Allow.`,
        covers: ['4.1/Access-granting page/state', '6/Authorization redirect'] },
      {
        setup: (t) => decideOnPage(t, 'allow', EVERY_KIND_STATE),
        steps: [
          step('', async (_t, v) => v, [redirectReached('Allow')]),
          step('', paramsOf, [stateReturned(EVERY_KIND_STATE)]),
        ],
      },
    ),
    exchangeRule<AccountChoicesView, string>(
      { id: 'oauth.page.private-single-account', needs: ['login', 'private-integration'], title: 'For a private integration the page offers exactly one account',
        reading: '§4.1 behaviour 2 and §8: "For private integrations the list holds exactly 1 account." The control API names a private integration (else PRIVATE_CLIENT_ID); the account choices are the page\'s radio buttons or select options, or one account shown without a choice (a field named account_id, or an account\'s name or sub-domain on the page); a page that offers no account at all fails.',
        covers: ['8/Private integration account choice', '4.1/Access-granting page/client_id'] },
      { setup: (t) => privateClientId(t), send: async (t, clientId) => accountChoices(t, clientId, await accountLabels(t)), expect: [oneAccountOffered] },
    ),
    sweepRule<string>(
      { id: 'oauth.page.unknown-client', needs: [], requires: [], title: 'The page with a missing or unknown client_id shows an error and redirects nowhere',
        reading: 'RFC 6749 §4.1.2.1: when the client identifier is missing or invalid, the server SHOULD inform the resource owner and MUST NOT redirect to the (unverifiable) redirect URI. Any non-redirecting answer passes (a 4xx or a 200 error page); a 3xx, a Location or Refresh header, or a page that navigates by itself (a meta refresh, a script setting the location) fails.' },
      {
        named: UNKNOWN_CLIENT_QUERIES,
        send: (t, query) => t.send({ method: 'GET', url: `${t.target.authUrl}/oauth${query}` }),
        expect: [noRedirect],
        label: (query) => query || 'no query',
      },
    ),
    exchangeRule(
      { id: 'oauth.page.not-framable', needs: [], level: 'should', requires: [], title: 'The access-granting page forbids framing by other origins',
        reading: 'RFC 6749 §10.13: a page that can be framed invites clickjacking of the Allow button; X-Frame-Options (DENY, SAMEORIGIN) or a Content-Security-Policy frame-ancestors directive prevents it.' },
      { send: (t) => t.send({ method: 'GET', url: `${t.target.authUrl}/oauth?client_id=${encodeURIComponent(t.credentials.clientId)}` }), expect: [notFramable] },
    ),
    propertyRule(
      { id: 'oauth.page.no-server-error', needs: [], level: 'should', requires: [], title: 'The page never answers a 5xx to odd query strings (repeated, empty, unknown parameters)',
        reading: 'Robustness: whatever query a browser is sent with, the page answers with a page, never a server error.' },
      {
        cases: (t) => fc.array(fc.tuple(fc.constantFrom('client_id', 'state', 'mode', 'redirect_uri', 'client_id[]', 'x'), fc.oneof(fc.constant(t.credentials.clientId), fc.constantFrom('popup', 'post_message', ''), fc.string({ maxLength: 12 }))), { maxLength: 5 }),
        send: (t, pairs) => t.send({ method: 'GET', url: `${t.target.authUrl}/oauth?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` }),
        expect: [noServerError],
      },
    ),
    exchangeRule<readonly string[]>(
      { id: 'oauth.consent.fresh-code', requires: [], needs: ['fresh-code'], title: `Each Allow mints a code of its own (${ALLOWS} Allows in a row)`,
        reading: '§4.1 behaviour 3: on Allow the user is redirected with a code; RFC 6749 §4.1.2: a code is single-use, so each grant needs its own. A code handed out twice could be exchanged by whoever sees the second redirect.' },
      {
        send: async (t) => {
          const codes: string[] = [];
          for (let i = 0; i < ALLOWS; i += 1) codes.push(await freshCode(t));
          return codes;
        },
        expect: [allDistinct('codes')],
      },
    ),
    scenarioRule<number>(
      { id: 'oauth.consent.deny-installs-nothing', requires: [], needs: ['ground-truth'], exclusive: true,
        title: 'Deny installs nothing: after Deny in an account without the integration, it is still not installed there',
        reading: '§4.1 behaviour 3 and 4: Allow installs the integration in the chosen account; Deny only redirects with error=access_denied. Done in a side account whose installation is removed first (deactivation).' },
      {
        setup: async (t) => {
          const accountId = await sideAccount(t);
          await t.control.call('POST', '/deactivate', { account_id: accountId });
          await t.control.consent({ decision: 'deny', account_id: accountId });
          return accountId;
        },
        steps: [
          step<number, readonly number[]>('after Deny', async (t) => {
            const { integrations } = await t.control.call<Integrations>('GET', '/integrations');
            return integrations.find((i) => i.client_id === t.credentials.clientId)?.installed_in ?? [];
          }, (_t, accountId) => [notInstalledIn(accountId)]),
        ],
      },
    ),
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
    scenarioRule<Forged>(
      { id: 'oauth.page.allow-csrf', title: 'An Allow posted from another site, or without the page\'s anti-forgery token, grants no code',
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
      { id: 'oauth.page.registered-redirect-only', title: 'A redirect_uri added to the page\'s address is never followed: Allow leads to the registered Redirect URI or nowhere',
        reading: `RFC 6749 §3.1.2.3 and §10.6: the page redirects only to the Redirect URI registered for the integration (§2.1); the §4.1 page takes no redirect_uri. Opened with redirect_uri=${FOREIGN_REDIRECT_URI} added, logged in, Allow: the browser must never go to ${ATTACKER_ORIGIN} (routed and recorded, never contacted); reaching the registered Redirect URI, refusing the address, or going nowhere pass.` },
      { send: (t) => allowWithForeignRedirectUri(t), expect: [originNotContacted(ATTACKER_ORIGIN)] },
    ),
    exchangeRule<RedirectView & { refused?: string }>(
      { id: 'oauth.page.unknown-mode', level: 'info', title: 'Records which window reaches the Redirect URI after Allow with a mode the spec does not name',
        reading: `§4.1 names the modes popup and post_message only; what another mode does is not stated. The integration's window opens the page in a popup with mode=${UNKNOWN_MODE}; after login and Allow, the window that reached the Redirect URI (or none) is recorded.`,
        covers: ['4.1/Access-granting page/mode'] },
      { send: (t) => allowInUnknownMode(t), expect: [redirectWindowObserved(`mode=${UNKNOWN_MODE}`)] },
    ),
    exchangeRule<OfferedAccountsView, AccountRoles>(
      { id: 'oauth.page.admin-accounts-only', needs: ['login', 'member-account'], title: 'The page offers the accounts where the user is an administrator, and none where he is only a member',
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
