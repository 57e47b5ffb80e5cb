/**
 * What a user does on the access-granting page (§4.1) in the run's Chromium, each returning a plain view of what the
 * page showed or where it led (src/checks/page.ts judges them): the browser is closed before any check runs.
 */
import type { IntegrationView, LoginView, RedirectView } from '../checks/page.js';
import { Precondition } from '../errors.js';
import type { RuleContext } from '../model/context.js';
import { decide, grantPageUrl, logInIfAsked, showsLogin, withGrantBrowser } from './browser.js';

export interface ControlIntegration {
  readonly client_id: string;
  readonly name: string;
  readonly private: boolean;
}

/** The integrations the control API knows. */
export async function integrations(t: RuleContext): Promise<readonly ControlIntegration[]> {
  return (await t.control.call<{ integrations: ControlIntegration[] }>('GET', '/integrations')).integrations;
}

/** The name of the integration of CLIENT_ID, or Precondition. */
export async function integrationName(t: RuleContext): Promise<string> {
  const name = (await integrations(t)).find((i) => i.client_id === t.credentials.clientId)?.name;
  if (!name) throw new Precondition('the control API does not list the integration of CLIENT_ID');
  return name;
}

/** The client_id of a private integration, or Precondition. */
export async function privateIntegration(t: RuleContext): Promise<string> {
  const priv = (await integrations(t)).find((i) => i.private);
  if (!priv) throw new Precondition('the control API lists no private integration');
  return priv.client_id;
}

/** The page as a user without a session sees it. */
export function pageWithoutSession(t: RuleContext): Promise<LoginView> {
  return withGrantBrowser(t, async (b) => {
    await b.main.goto(grantPageUrl(t, {}));
    return { loginForm: await showsLogin(b.main), allowButtons: await b.main.getByRole('button', { name: /^allow$/i }).count() };
  }, { session: 'none' });
}

/** The page after logging in: its text, whether a logo image loaded, how many permissions it lists. */
export function pageAfterLogin(t: RuleContext): Promise<IntegrationView> {
  return withGrantBrowser(t, async (b) => {
    await b.main.goto(grantPageUrl(t, {}));
    await logInIfAsked(t, b.main);
    await b.main.waitForLoadState('load');
    return {
      text: await b.main.locator('body').innerText(),
      logoLoaded: await b.main.locator('img').evaluateAll((imgs) => imgs.some((i) => (i as unknown as { complete: boolean; naturalWidth: number }).complete && (i as unknown as { naturalWidth: number }).naturalWidth > 0)),
      permissions: await b.main.locator('ul li').count(),
    };
  });
}

/** How many accounts the page offers to grant access in, for `clientId`. */
export function accountChoices(t: RuleContext, clientId: string): Promise<{ choices: number }> {
  return withGrantBrowser(t, async (b) => {
    await b.main.goto(grantPageUrl(t, { clientId }));
    await logInIfAsked(t, b.main);
    return { choices: await b.main.locator('input[type=radio][name=account_id]').count() };
  });
}

/** Opens the page in the main window (with `state`), logs in, decides, and returns the redirect that followed. */
export function decideOnPage(t: RuleContext, decision: 'allow' | 'deny', state?: string): Promise<RedirectView> {
  return withGrantBrowser(t, async (b) => {
    await b.main.goto(grantPageUrl(t, state === undefined ? {} : { state }));
    await logInIfAsked(t, b.main);
    await decide(b.main, decision);
    const hit = await b.nextRedirect();
    return hit ? { hit } : {};
  });
}

/** Popup mode: the integration's window opens the page in a popup; Allow; the redirect and whether the popup closed. */
export function allowInPopup(t: RuleContext): Promise<RedirectView & { popupClosed: boolean }> {
  return withGrantBrowser(t, async (b) => {
    const popup = await b.openPopup(grantPageUrl(t, { mode: 'popup' }));
    await logInIfAsked(t, popup);
    const closed = popup.waitForEvent('close', { timeout: 15_000 }).then(() => true, () => popup.isClosed());
    await decide(popup, 'allow');
    const hit = await b.nextRedirect();
    // Only a redirect in the main window leaves the popup anything to close; otherwise it is not waited for.
    return { ...(hit ? { hit } : {}), popupClosed: hit?.window === 'main' ? await closed : false };
  });
}

/** How long the opened window's postMessage may take to reach the integration's window. */
const POST_MESSAGE_WINDOW_MS = 1_000;

/** post_message mode: Allow in the opened window; the redirect and the messages its opener received. */
export function allowWithPostMessage(t: RuleContext, state: string): Promise<RedirectView & { messages: readonly unknown[] }> {
  return withGrantBrowser(t, async (b) => {
    const popup = await b.openPopup(grantPageUrl(t, { mode: 'post_message', state }));
    await logInIfAsked(t, popup);
    await decide(popup, 'allow');
    const hit = await b.nextRedirect();
    if (hit?.window !== 'popup') return { ...(hit ? { hit } : {}), messages: [] };
    const { value: messages } = await t.eventually(() => b.messages(), { within: POST_MESSAGE_WINDOW_MS, until: (m) => m.length > 0 });
    return { hit, messages };
  });
}
