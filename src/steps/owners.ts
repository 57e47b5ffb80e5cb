/**
 * The rule that judges each set-up step the target answers: when a step's answer is not what the spec states, that
 * rule fails and the others that needed the step are skipped naming it (TargetAnswer, src/errors.ts). One home for
 * these names, so that a step and the rule judging it cannot drift apart (test/cli/unjudged.test.ts checks each is a
 * rule).
 */
export const STEP_OWNERS = {
  /** Connect answers 2xx with a string scope_id. */
  connect: 'chat.connect.answer',
  /** Create chat answers 2xx with a string id. */
  createChat: 'chat.create-chat.answer',
  /** A new message answers 2xx with new_message and its msgid, sender_id. */
  sendMessage: 'chat.message.answer',
  /** Disconnect answers 2xx. */
  disconnect: 'chat.disconnect.no-body',
  /** History answers 2xx (or 204) with a messages array. */
  history: 'chat.history.fields',
  /** The code exchange answers a token response. */
  codeExchange: 'oauth.token-response.content-type',
  /** The refresh exchange answers a token response. */
  refreshExchange: 'oauth.refresh.answer',
  /** expires_in is a positive number of seconds. */
  expiresIn: 'oauth.token-response.expires-in',
  /** The access-granting page opens as a page (no 4xx or 5xx). */
  grantPage: 'oauth.page.shows-integration',
  /** Allow leads to the Redirect URI with a code. */
  allowRedirect: 'oauth.page.allow-popup',
  /** Deny leads to the Redirect URI (its parameters judged there too). */
  denyRedirect: 'oauth.redirect.deny',
  /** Disconnecting the integration sends the hook. */
  disconnectHook: 'hook.disconnect.parameters',
  /** A fresh access token works at the account API. */
  freshAccessToken: 'api.bearer.valid-before-expiry',
  /** A fresh long-lived token works at the account API. */
  longLivedToken: 'api.long-lived.works',
} as const;

/** The rule that judges the redirect the user's decision leads to: a broken Deny must not be blamed on Allow. */
export function redirectOwner(decision: 'allow' | 'deny'): string {
  return decision === 'deny' ? STEP_OWNERS.denyRedirect : STEP_OWNERS.allowRedirect;
}
