/**
 * What a user does on the access-granting page (§4.1) in the run's Chromium, each returning a plain view of what the
 * page showed or where it led (src/checks/page.ts judges them): the browser is closed before any check runs.
 */
import type { Page } from 'playwright-core';
import type { AccountChoicesView, ForeignRedirectView, ForgedDecisionView, IntegrationView, LoginView, OfferedAccountsView, RedirectView } from '../checks/page.js';
import { Precondition, TargetAnswer } from '../errors.js';
import { STEP_OWNERS } from './owners.js';
import type { RuleContext } from '../model/context.js';
import {
  accountChoicesOn, allowButtons, ATTACKER_ORIGIN, decide, type GrantBrowser, grantPageUrl, logInIfAsked, type RedirectHit, showsLogin, withGrantBrowser,
} from './browser.js';

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

/**
 * How many accounts the page offers to grant access in, for `clientId` (radio buttons or a select's options), and
 * whether, offering no choice, it carries an account at all (a field named account_id, or the page's text naming one
 * of `labels`: the accounts' names or sub-domains).
 */
export function accountChoices(t: RuleContext, clientId: string, labels: readonly string[]): Promise<AccountChoicesView> {
  return withGrantBrowser(t, async (b) => {
    await b.main.goto(grantPageUrl(t, { clientId }));
    await logInIfAsked(t, b.main);
    const choices = (await accountChoicesOn(b.main)).length;
    const field = await b.main.locator('[name=account_id]').count() > 0;
    const text = choices > 0 || field ? '' : await b.main.locator('body').innerText();
    return { choices, showsAccount: choices > 0 || field || labels.some((l) => l !== '' && text.includes(l)) };
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

/**
 * How long a navigation to the Redirect URI may take once the page has answered a decision: a 303 is followed at
 * once, a script that sends the window there within milliseconds; 3 s covers a loaded machine.
 */
export const DECISION_REDIRECT_WINDOW_MS = 3_000;

/** Generous, as the browser's own steps: the page's answer to a decision. */
const ANSWER_TIMEOUT_MS = 15_000;

/** The §4.1 parameters (and the decision and account choice) a grant form carries; other hidden fields may be a form token. */
const PAGE_PARAMETERS: ReadonlySet<string> = new Set(['client_id', 'state', 'mode', 'redirect_uri', 'account_id', 'decision']);

interface AllowForm {
  /** Absolute address the form posts to. */
  readonly action: string;
  /** What the form sends on Allow (the Allow button as submitter), in order. */
  readonly fields: readonly (readonly [string, string])[];
  /** Hidden fields that are no §4.1 parameter: the candidate anti-forgery fields. */
  readonly tokenFields: readonly string[];
}

/** Shapes the DOM objects the form reader touches (the kit compiles without the DOM library). */
interface FormButton {
  readonly form: { readonly action: string; querySelectorAll(selector: string): ArrayLike<{ readonly name: string }> } | null;
}

/** The form of the page's Allow button, read in the page. */
async function allowForm(page: Page): Promise<AllowForm> {
  if ((await allowButtons(page)) === 0) throw new TargetAnswer(STEP_OWNERS.allowRedirect, 'the access-granting page shows no Allow button after logging in');
  const form = await page.getByRole('button', { name: /^allow$/i }).first().evaluate((el) => {
    const button = el as unknown as FormButton;
    if (!button.form) return undefined;
    const Data = (globalThis as unknown as { FormData: new (form: unknown, submitter: unknown) => Iterable<[string, unknown]> }).FormData;
    return {
      action: button.form.action,
      fields: [...new Data(button.form, button)].map(([k, v]) => [k, String(v)] as [string, string]),
      hidden: Array.from(button.form.querySelectorAll('input[type=hidden]'), (i) => i.name),
    };
  });
  if (!form) throw new TargetAnswer(STEP_OWNERS.allowRedirect, 'the access-granting page\'s Allow button belongs to no form');
  return { action: form.action, fields: form.fields, tokenFields: [...new Set(form.hidden.filter((n) => n && !PAGE_PARAMETERS.has(n)))] };
}

const escapeHtml = (v: string): string => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page of the integration's origin that posts `fields` to `action` when its button is clicked (a forged Allow). */
function forgedAllowPage(action: string, fields: AllowForm['fields']): string {
  return `<!doctype html><meta charset="utf-8"><title>Another site</title>
<form id="forged" method="post" action="${escapeHtml(action)}">
${fields.map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join('\n')}
<button id="forge" type="submit">Continue</button>
</form>`;
}

interface AfterDecision {
  readonly answered: number;
  readonly hit?: RedirectView['hit'];
}

/**
 * Submits a decision on `page` (`submit`) and waits for the page's answer, then for a navigation to the Redirect URI
 * (or `alsoDone`) within DECISION_REDIRECT_WINDOW_MS (capped on the embedded emulator).
 */
async function afterDecision(t: RuleContext, b: GrantBrowser, page: Page, submit: () => Promise<void>, alsoDone: () => boolean = () => false): Promise<AfterDecision> {
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.request().isNavigationRequest(), { timeout: ANSWER_TIMEOUT_MS });
  answer.catch(() => undefined);
  // The answer's arrival is not its document's commit: a navigation the rule starts in between (the next forged Allow)
  // was interrupted by the decision's own, committing late (issue 28 §8). The decision is over once its document is in.
  const committed = page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: ANSWER_TIMEOUT_MS }).then(
    () => page.waitForLoadState('domcontentloaded', { timeout: ANSWER_TIMEOUT_MS }), () => undefined);
  committed.catch(() => undefined);
  await submit();
  // A window that closes itself (popup mode) may be gone before its answer is seen; the redirect still counts.
  const answered = await answer.then((r) => r.status(), () => 0);
  // 204 and 205 leave the document as it is: nothing commits.
  if (answered !== 0 && answered !== 204 && answered !== 205) await committed.catch(() => undefined);
  const { value } = await t.eventually(async () => b.pendingRedirects(), { within: DECISION_REDIRECT_WINDOW_MS, until: (hits) => hits.length > 0 || alsoDone() });
  const hit: RedirectHit | undefined = value.length > 0 ? await b.nextRedirect(0) : undefined;
  return { answered, ...(hit ? { hit: { window: hit.window, params: hit.params } } : {}) };
}

/**
 * Goes to `url` on a page where a decision was just made. A decision answered with a redirect hands the window on by a
 * script (src/browser/shared-context.ts), whose navigation can still commit after ours began and interrupt it: ours is
 * then made again, once, after it.
 */
async function gotoAfterDecision(page: Page, url: string): Promise<void> {
  try {
    await page.goto(url);
  } catch (err) {
    if (!/interrupted by another navigation/i.test((err as Error)?.message ?? '')) throw err;
    await page.waitForLoadState('domcontentloaded').catch(() => undefined);
    await page.goto(url);
  }
}

/**
 * RFC 6749 §10.12: Allow posted by someone else than the logged-in user on his own page. Cross-site: a page of the
 * integration's origin posts the form's fields without its candidate anti-forgery fields (what another site can
 * know), the browser sending what it sends cross-site. Without the form token: the user's own page posts its form
 * with those fields removed (skipped when the form has none).
 */
export function forgedAllows(t: RuleContext, state: string): Promise<{ crossSite: ForgedDecisionView; withoutToken: ForgedDecisionView }> {
  return withGrantBrowser(t, async (b) => {
    await b.main.goto(grantPageUrl(t, { state }));
    const form = await allowForm(b.main);
    const { tokenFields } = form;
    await b.openForeignPage(forgedAllowPage(form.action, form.fields.filter(([name]) => !tokenFields.includes(name))));
    const crossSite: ForgedDecisionView = { tokenFields, ...(await afterDecision(t, b, b.main, () => b.main.click('#forge', { noWaitAfter: true }))) };
    if (tokenFields.length === 0) return { crossSite, withoutToken: { tokenFields } };
    await gotoAfterDecision(b.main, grantPageUrl(t, { state }));
    for (const name of tokenFields) {
      await b.main.locator(`input[type=hidden][name=${JSON.stringify(name)}]`).evaluateAll((inputs) => inputs.forEach((i) => (i as unknown as { remove(): void }).remove()));
    }
    const withoutToken: ForgedDecisionView = { tokenFields, ...(await afterDecision(t, b, b.main, () => decide(b.main, 'allow'))) };
    return { crossSite, withoutToken };
  });
}

/** The foreign Redirect URI a rule adds to the page's address (RFC 6749 §3.1.2.3). */
export const FOREIGN_REDIRECT_URI = `${ATTACKER_ORIGIN}/cb`;

/** Opens the page with redirect_uri=FOREIGN_REDIRECT_URI added, Allows, and records where the browser went. */
export function allowWithForeignRedirectUri(t: RuleContext): Promise<ForeignRedirectView> {
  return withGrantBrowser(t, async (b) => {
    await b.main.goto(grantPageUrl(t, { extra: { redirect_uri: FOREIGN_REDIRECT_URI } }));
    const foreign = () => b.foreign().map((f) => f.url);
    if ((await allowButtons(b.main)) === 0) return { foreign: foreign(), refused: await b.main.title() };
    const after = await afterDecision(t, b, b.main, () => decide(b.main, 'allow'), () => b.foreign().length > 0);
    return { ...(after.hit ? { hit: after.hit } : {}), foreign: foreign() };
  });
}

/** A mode the spec does not name. */
export const UNKNOWN_MODE = 'other';

/** As the integration would open it (a popup) with mode=UNKNOWN_MODE; Allow; which window reached the Redirect URI. */
export function allowInUnknownMode(t: RuleContext): Promise<RedirectView & { refused?: string }> {
  return withGrantBrowser(t, async (b) => {
    const popup = await b.openPopup(grantPageUrl(t, { mode: UNKNOWN_MODE }));
    await logInIfAsked(t, popup);
    if ((await allowButtons(popup)) === 0) return { refused: await popup.title() };
    await decide(popup, 'allow');
    const hit = await b.nextRedirect();
    return hit ? { hit: { window: hit.window, params: hit.params } } : {};
  });
}

/** The accounts the page offers the logged-in user for CLIENT_ID. */
export function offeredAccounts(t: RuleContext): Promise<OfferedAccountsView> {
  return withGrantBrowser(t, async (b) => {
    await b.main.goto(grantPageUrl(t, {}));
    await logInIfAsked(t, b.main);
    return { offered: await accountChoicesOn(b.main) };
  });
}
