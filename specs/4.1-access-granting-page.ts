/**
 * §4.1 Access-granting page and the redirect it ends in (behaviour 1–5, §6 authorization redirect and widget
 * installation hook, §8 private integration account choice). The redirect rules act as the user through the control
 * API; the page rules drive the real page in Chromium (capability `browser`), with the integration's origin
 * intercepted in the browser, never contacted.
 */
import fc from 'fast-check';
import {
  accounts, checkRedirect, consentRedirect, decide, defineSpec, EVERY_KIND_STATE, fail, type Finding, grantPageUrl, logInIfAsked, parameterAbsent, parameterEquals, parameterPresent, pass, platformOneOrTwo, Precondition, type RedirectHit, rule, type RuleContext, showsLogin, stateCases, stateReturned, withGrantBrowser,
} from './kit.js';

const BROWSER = ['browser', 'control'] as const;

const NOT_WIDGET = 'it is sent only with the hook after a widget installation';

const allowChecks = [parameterPresent('code'), parameterPresent('referer'), platformOneOrTwo, parameterAbsent('from_widget', NOT_WIDGET), parameterAbsent('error', 'the user allowed')];

interface ControlIntegration {
  readonly client_id: string;
  readonly name: string;
  readonly private: boolean;
}

async function integrations(t: RuleContext): Promise<readonly ControlIntegration[]> {
  return (await t.control.call<{ integrations: ControlIntegration[] }>('GET', '/integrations')).integrations;
}

function redirectFinding(hit: RedirectHit | undefined, expected: 'main' | 'popup', what: string): Finding {
  if (!hit) return fail('redirect', `expected ${what}, observed no navigation to the Redirect URI`);
  return hit.window === expected
    ? pass('redirect', `the ${expected === 'main' ? 'main' : 'opened'} window went to the Redirect URI`)
    : fail('redirect', `expected ${what}, observed the ${hit.window === 'main' ? 'main' : 'opened'} window going to the Redirect URI`);
}

export default defineSpec({
  section: '4.1',
  title: 'Access-granting page and redirect',
  level: 'must',
  rules: [
    rule(
      { id: 'oauth.redirect.state-round-trip', requires: ['control'], title: 'state comes back unchanged in the redirect, also with characters that need escaping',
        reading: '§4.1: state is "returned unchanged". Compared after URL decoding of the redirect\'s query; each case names the kind of character it carries. Checked on Allow and on Deny.',
        covers: ['4.1/Access-granting page/state', '6/Authorization redirect'] },
      (t) => t.property(fc.record({ state: stateCases, decision: fc.constantFrom('allow' as const, 'deny' as const) }), async ({ state, decision }) => {
        const { params } = await consentRedirect(t, { state: state.value, decision });
        return checkRedirect(params, [stateReturned(state.value)]);
      }),
    ),
    rule(
      { id: 'oauth.redirect.no-state', requires: ['control'], title: 'Without a state, the redirect carries no state parameter (Allow and Deny)',
        reading: '§4.1: "If not passed, it is not returned"; an empty state= counts as returned.',
        covers: ['4.1/Access-granting page/state', '6/Authorization redirect'] },
      async (t) => {
        const allow = await consentRedirect(t, { decision: 'allow' });
        const deny = await consentRedirect(t, { decision: 'deny' });
        return t.outcome([
          ...checkRedirect(allow.params, [parameterAbsent('state', 'none was passed (Allow)')]),
          ...checkRedirect(deny.params, [parameterAbsent('state', 'none was passed (Deny)')]),
        ]);
      },
    ),
    rule(
      { id: 'oauth.redirect.allow-parameters', requires: ['control'], title: 'Allow redirects with code, referer and platform 1 or 2, and no from_widget',
        reading: '§4.1 behaviour 3. Checked for every account the user can pick (the control API lists them with their domain); platform must be 1 or 2, and 1 exactly for an account the control API places on the regional domain.',
        covers: ['6/Authorization redirect', '4.1/Access-granting page/client_id'] },
      async (t) => {
        const findings: Finding[] = [];
        for (const account of (await accounts(t)).filter((a) => a.admin_role !== 'member')) {
          const { params } = await consentRedirect(t, { accountId: account.id });
          findings.push(...checkRedirect(params, allowChecks));
          if (account.platform === 1 || account.platform === 2) findings.push(...checkRedirect(params, [parameterEquals('platform', String(account.platform))]));
        }
        return t.outcome(findings);
      },
    ),
    rule(
      { id: 'oauth.redirect.deny', requires: ['control'], title: 'Deny redirects with error=access_denied, the state, and no code',
        reading: '§4.1 behaviour 4 and §7 other cases 1.', covers: ['6/Authorization redirect', '4.1/Access-granting page/state'] },
      async (t) => {
        const { params } = await consentRedirect(t, { decision: 'deny', state: `deny-${t.runId}` });
        return t.outcome(checkRedirect(params, [parameterEquals('error', 'access_denied'), stateReturned(`deny-${t.runId}`), parameterAbsent('code', 'the user denied')]));
      },
    ),
    rule(
      { id: 'oauth.redirect.widget-hook', section: '6', requires: ['control'], title: 'The widget installation hook carries the redirect parameters plus from_widget',
        reading: '§4.1 behaviour 5 and §6: "same parameters as the redirect, plus from_widget". The control API installs as from an uploaded widget archive and answers the hook it sends (the emulator cannot reach the Redirect URI\'s host).',
        covers: ['6/Widget installation hook'] },
      async (t) => {
        const { params } = await consentRedirect(t, { widget: true, state: `widget-${t.runId}` });
        return t.outcome(checkRedirect(params, [parameterPresent('code'), parameterPresent('referer'), platformOneOrTwo, stateReturned(`widget-${t.runId}`), parameterPresent('from_widget')]));
      },
    ),

    // ---- the real page, in Chromium ----
    rule(
      { id: 'oauth.page.login-required', requires: [...BROWSER], title: 'The access-granting page asks a user without a session to log in before offering any account',
        reading: '§4.1 behaviour 2. A fresh browser context has no session; the page must show a password field and no Allow button.',
        covers: ['4.1/Access-granting page/client_id'] },
      (t) => withGrantBrowser(t, async (b) => {
        await b.main.goto(grantPageUrl(t, {}));
        const login = await showsLogin(b.main);
        const allow = await b.main.getByRole('button', { name: /^allow$/i }).count();
        return t.outcome([
          login ? pass('login form', 'a password field is shown') : fail('login form', 'expected a login form for a user without a session, observed none'),
          allow === 0 ? pass('no grant before login') : fail('no grant before login', 'expected no Allow button before logging in, observed one'),
        ]);
      }, { session: 'none' }),
    ),
    rule(
      { id: 'oauth.page.shows-integration', requires: [...BROWSER], title: 'The access-granting page shows the integration logo, name and requested permissions',
        reading: '§4.1 behaviour 1 and §2.1 (name "shown in the access dialog"). The logo must be an image that loads; the permissions a non-empty list.',
        covers: ['2.1/Name', '2.1/Icon', '2.1/Permissions', '8/Integration icon'] },
      (t) => withGrantBrowser(t, async (b) => {
        const name = (await integrations(t)).find((i) => i.client_id === t.credentials.clientId)?.name;
        if (!name) throw new Precondition('the control API does not list the integration of CLIENT_ID');
        await b.main.goto(grantPageUrl(t, {}));
        await logInIfAsked(t, b.main);
        await b.main.waitForLoadState('load');
        const body = await b.main.locator('body').innerText();
        const logoLoaded = await b.main.locator('img').evaluateAll((imgs) => imgs.some((i) => (i as unknown as { complete: boolean; naturalWidth: number }).complete && (i as unknown as { naturalWidth: number }).naturalWidth > 0));
        const permissions = await b.main.locator('ul li').count();
        return t.outcome([
          body.includes(name) ? pass('name', 'the integration name is shown') : fail('name', 'expected the integration name on the page, observed none'),
          logoLoaded ? pass('logo', 'a logo image loaded') : fail('logo', 'expected a logo image that loads, observed none'),
          permissions > 0 ? pass('permissions', `${permissions} permission(s) listed`) : fail('permissions', 'expected the requested permissions listed, observed none'),
        ]);
      }),
    ),
    rule(
      { id: 'oauth.page.allow-popup', requires: [...BROWSER], title: 'Allow in popup mode: the grant window closes and the main window goes to the Redirect URI with a code',
        reading: '§4.1 mode popup. The integration\'s window opens the page in a popup (a click); after login and Allow, the main window must reach the Redirect URI with code, referer and platform, and the popup must close.',
        covers: ['4.1/Access-granting page/mode', '6/Authorization redirect'] },
      (t) => withGrantBrowser(t, async (b) => {
        const popup = await b.openPopup(grantPageUrl(t, { mode: 'popup' }));
        await logInIfAsked(t, popup);
        const closed = popup.waitForEvent('close', { timeout: 15_000 }).then(() => true, () => popup.isClosed());
        await decide(popup, 'allow');
        const hit = await b.nextRedirect();
        const findings = [redirectFinding(hit, 'main', 'the main window to go to the Redirect URI')];
        if (hit) findings.push(...checkRedirect(hit.params, allowChecks));
        if (hit?.window === 'main') findings.push((await closed) ? pass('popup closed', 'the grant window closed') : fail('popup closed', 'expected the grant window to close, observed it open'));
        return t.outcome(findings);
      }),
    ),
    rule(
      { id: 'oauth.page.allow-post-message', requires: [...BROWSER], title: 'Allow in post_message mode: the redirect happens inside the opened window, which can report to its opener',
        reading: '§4.1 mode post_message. The opened window must reach the Redirect URI itself (the main window stays), and keep its opener so that the integration\'s page there can postMessage the result: the main window must receive it.',
        covers: ['4.1/Access-granting page/mode', '6/Authorization redirect'] },
      (t) => withGrantBrowser(t, async (b) => {
        const popup = await b.openPopup(grantPageUrl(t, { mode: 'post_message', state: `pm-${t.runId}` }));
        await logInIfAsked(t, popup);
        await decide(popup, 'allow');
        const hit = await b.nextRedirect();
        const findings = [redirectFinding(hit, 'popup', 'the opened window to go to the Redirect URI')];
        if (hit) findings.push(...checkRedirect(hit.params, [...allowChecks, stateReturned(`pm-${t.runId}`)]));
        if (hit?.window === 'popup') {
          const { value: messages } = await t.eventually(() => b.messages(), { within: 1_000, until: (m) => m.length > 0 });
          const got = messages.find((m): m is { href: string } => typeof (m as { href?: unknown })?.href === 'string');
          findings.push(got && new URL(got.href).searchParams.get('code')
            ? pass('postMessage', 'the main window received the redirect\'s result from the opened window')
            : fail('postMessage', 'expected the main window to receive the result by postMessage from the opened window, observed none'));
        }
        return t.outcome(findings);
      }),
    ),
    rule(
      { id: 'oauth.page.deny', requires: [...BROWSER], title: 'Deny on the page redirects with error=access_denied and the state',
        reading: '§4.1 behaviour 4, through the real page.', covers: ['6/Authorization redirect', '4.1/Access-granting page/state'] },
      (t) => withGrantBrowser(t, async (b) => {
        const state = `deny-${t.runId}`;
        await b.main.goto(grantPageUrl(t, { state }));
        await logInIfAsked(t, b.main);
        await decide(b.main, 'deny');
        const hit = await b.nextRedirect();
        if (!hit) return t.outcome([fail('redirect', 'expected a redirect to the Redirect URI after Deny, observed none')]);
        return t.outcome(checkRedirect(hit.params, [parameterEquals('error', 'access_denied'), stateReturned(state), parameterAbsent('code', 'the user denied')]));
      }),
    ),
    rule(
      { id: 'oauth.page.state-round-trip', requires: [...BROWSER], title: 'A state with characters that need escaping survives the real page unchanged',
        reading: `§4.1: state is returned unchanged. One state carrying every kind of tricky character (${JSON.stringify(EVERY_KIND_STATE)}), sent URL-encoded in the page address, through login and Allow.`,
        covers: ['4.1/Access-granting page/state', '6/Authorization redirect'] },
      (t) => withGrantBrowser(t, async (b) => {
        await b.main.goto(grantPageUrl(t, { state: EVERY_KIND_STATE }));
        await logInIfAsked(t, b.main);
        await decide(b.main, 'allow');
        const hit = await b.nextRedirect();
        if (!hit) return t.outcome([fail('redirect', 'expected a redirect to the Redirect URI after Allow, observed none')]);
        return t.outcome(checkRedirect(hit.params, [stateReturned(EVERY_KIND_STATE)]));
      }),
    ),
    rule(
      { id: 'oauth.page.private-single-account', requires: [...BROWSER], title: 'For a private integration the page offers exactly one account',
        reading: '§4.1 behaviour 2 and §8: "For private integrations the list holds exactly 1 account." The control API names a private integration; the account choices are the page\'s radio buttons (or one account shown without a choice).',
        covers: ['8/Private integration account choice', '4.1/Access-granting page/client_id'] },
      (t) => withGrantBrowser(t, async (b) => {
        const priv = (await integrations(t)).find((i) => i.private);
        if (!priv) throw new Precondition('the control API lists no private integration');
        await b.main.goto(grantPageUrl(t, { clientId: priv.client_id }));
        await logInIfAsked(t, b.main);
        const choices = await b.main.locator('input[type=radio][name=account_id]').count();
        return t.outcome([choices <= 1
          ? pass('one account', `${choices === 0 ? 'one account shown without a choice' : 'exactly one account offered'}`)
          : fail('one account', `expected exactly one account for a private integration, observed ${choices} choices`)]);
      }),
    ),
  ],
});
