/**
 * §4.1 Access-granting page and the redirect it ends in (behaviour 1–5, §6 authorization redirect and widget
 * installation hook, §8 private integration account choice). The redirect rules act as the user through the control
 * API, else on the page in Chromium as the administrator (ADMIN_LOGIN); the page rules drive the real page in Chromium
 * (capability `browser`), with the integration's origin intercepted in the browser, never contacted.
 */
import fc from 'fast-check';
import {
  accountChoices, accounts, allowInPopup, allowWithPostMessage, type ControlAccount, decideOnPage, defineSpec, distinct, eachStep, EVERY_KIND_STATE, exchangeRule, LONG_STATE, sweepRule, expectedIntegrationName, integrationNameShown, type IntegrationView, loginFormShown, type LoginView, logoLoaded, noGrantBeforeLogin, oneAccountOffered, pageAfterLogin, pageWithoutSession, parameterAbsent, parameterEquals, parameterPresent, permissionsListed, platformOneOrTwo, popupClosed, postMessageReceived, privateClientId, redirectedIn, redirectQuery, redirectReached, refererNames, type RedirectView, type RuleContext, scenarioRule, type StateCase, stateCases, stateReturned, step,
} from './kit.js';

const BROWSER = ['browser'] as const;

const NOT_WIDGET = 'it is sent only with the hook after a widget installation';

const allowChecks = [parameterPresent('code'), parameterPresent('referer'), platformOneOrTwo, parameterAbsent('from_widget', NOT_WIDGET, 'falsy'), parameterAbsent('error', 'the user allowed')];

/** The query of the redirect a page view led to (the step before has checked there was one). */
const paramsOf = async (_t: RuleContext, v: RedirectView) => v.hit!.params;

export default defineSpec({
  section: '4.1',
  title: 'Access-granting page and redirect',
  level: 'must',
  rules: [
    sweepRule<{ state: StateCase; decision: 'allow' | 'deny' }, URLSearchParams>(
      { id: 'oauth.redirect.state-round-trip', requires: [], needs: ['consent'], title: 'state comes back unchanged in the redirect, also with characters that need escaping',
        reading: '§4.1: state is "returned unchanged". Compared after URL decoding of the redirect\'s query; each case names the kind of character it carries. Checked on Allow and on Deny.',
        covers: ['4.1/Access-granting page/state', '6/Authorization redirect'] },
      {
        // A long state, and one with a character of every kind, on both decisions every run, whatever the seed draws: a
        // short column cuts the first, an encoding step too many or too few (percent, HTML) shows in the second.
        named: (['allow', 'deny'] as const).flatMap((decision) => [
          { state: { kind: 'long' as const, value: LONG_STATE }, decision },
          { state: { kind: 'query-delimiters' as const, value: EVERY_KIND_STATE }, decision },
        ]),
        cases: () => fc.record({ state: stateCases, decision: fc.constantFrom('allow' as const, 'deny' as const) }),
        send: (t, { state, decision }) => redirectQuery(t, { state: state.value, decision }),
        expect: (_t, { state }) => [stateReturned(state.value)],
        label: ({ state, decision }) => `${state.kind} (${decision})`,
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
    exchangeRule<URLSearchParams>(
      { id: 'oauth.redirect.widget-hook', section: '6', requires: ['control'], title: 'The widget installation hook carries the redirect parameters plus from_widget',
        reading: '§4.1 behaviour 5 and §6: "same parameters as the redirect, plus from_widget". The control API installs as from an uploaded widget archive and answers the hook it sends (the emulator cannot reach the Redirect URI\'s host).',
        covers: ['6/Widget installation hook'] },
      {
        send: (t) => redirectQuery(t, { widget: true, state: `widget-${t.runId}` }),
        expect: (t) => [parameterPresent('code'), parameterPresent('referer'), platformOneOrTwo, stateReturned(`widget-${t.runId}`), parameterPresent('from_widget')],
      },
    ),

    // ---- the real page, in Chromium ----
    exchangeRule<LoginView>(
      { id: 'oauth.page.login-required', requires: [...BROWSER], needs: ['login'], title: 'The access-granting page asks a user without a session to log in before offering any account',
        reading: '§4.1 behaviour 2. A fresh browser context has no session; the page must show a password field and no Allow button.',
        covers: ['4.1/Access-granting page/client_id'] },
      { send: (t) => pageWithoutSession(t), expect: [loginFormShown, noGrantBeforeLogin] },
    ),
    exchangeRule<IntegrationView, string>(
      { id: 'oauth.page.shows-integration', requires: [...BROWSER], needs: ['login', 'integration-name'], title: 'The access-granting page shows the integration logo, name and requested permissions',
        reading: '§4.1 behaviour 1 and §2.1 (name "shown in the access dialog"). The logo must be an image that loads; the permissions a non-empty list.',
        covers: ['2.1/Name', '2.1/Icon', '2.1/Permissions', '8/Integration icon'] },
      {
        setup: (t) => expectedIntegrationName(t),
        send: (t) => pageAfterLogin(t),
        expect: (_t, name) => [integrationNameShown(name), logoLoaded, permissionsListed],
      },
    ),
    scenarioRule<RedirectView & { popupClosed: boolean }>(
      { id: 'oauth.page.allow-popup', requires: [...BROWSER], needs: ['login'], title: 'Allow in popup mode: the grant window closes and the main window goes to the Redirect URI with a code',
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
      { id: 'oauth.page.allow-post-message', requires: [...BROWSER], needs: ['login'], title: 'Allow in post_message mode: the redirect happens inside the opened window, which can report to its opener',
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
      { id: 'oauth.page.deny', requires: [...BROWSER], needs: ['login'], title: 'Deny on the page redirects with error=access_denied and the state',
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
      { id: 'oauth.page.state-round-trip', requires: [...BROWSER], needs: ['login'], title: 'A state with characters that need escaping survives the real page unchanged',
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
    exchangeRule<{ choices: number }, string>(
      { id: 'oauth.page.private-single-account', requires: [...BROWSER], needs: ['login', 'private-integration'], title: 'For a private integration the page offers exactly one account',
        reading: '§4.1 behaviour 2 and §8: "For private integrations the list holds exactly 1 account." The control API names a private integration (else PRIVATE_CLIENT_ID); the account choices are the page\'s radio buttons (or one account shown without a choice).',
        covers: ['8/Private integration account choice', '4.1/Access-granting page/client_id'] },
      { setup: (t) => privateClientId(t), send: (t, clientId) => accountChoices(t, clientId), expect: [oneAccountOffered] },
    ),
  ],
});
