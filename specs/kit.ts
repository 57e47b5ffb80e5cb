/**
 * The one entry point of spec files: the rule model and its builders, the named checks, the steps and fixtures, the
 * protocol's request builders and the generators. A spec file imports from here (and from fast-check), never from
 * src/ directly: test/specs/layering.test.ts holds it to that. See docs/writing-rules.md.
 */

// the model and its builders
export * from '../src/model/rule.js';
export * from '../src/model/define.js';
export * from '../src/model/outcome.js';
export * from '../src/model/check.js';
export type * from '../src/model/context.js';
export type * from '../src/model/control.js';
export type * from '../src/model/http.js';
export { isSuccess } from '../src/model/http.js';
// the windows within which an expected effect or hook shows, and a forbidden one is watched (docs/verdicts.md)
export { POLICY_EFFECT_WINDOW_MS, POLICY_HOOK_WINDOW_MS } from '../src/model/readings.js';
export type * from '../src/model/target.js';
export { CAPABILITIES } from '../src/model/target.js';
export type * from '../src/model/needs.js';
export { ControlError, Precondition, SkipRule, TargetAnswer } from '../src/errors.js';
export { STEP_OWNERS } from '../src/steps/owners.js';

// named checks
export * from '../src/checks/status.js';
export * from '../src/checks/fields.js';
export * from '../src/checks/json.js';
export * from '../src/checks/token.js';
export * from '../src/checks/secrets.js';
export * from '../src/checks/chat.js';
export * from '../src/checks/chat-scope.js';
export * from '../src/checks/chat-members.js';
export * from '../src/checks/chat-history.js';
export * from '../src/checks/chat-effects.js';
export * from '../src/checks/chat-records.js';
export * from '../src/checks/redirect.js';
export * from '../src/checks/hook.js';
export * from '../src/checks/page.js';
export * from '../src/checks/filter-meaning.js';
export * from '../src/checks/races.js';
export * from '../src/checks/observe.js';
export * from '../src/checks/token-format.js';
export * from '../src/checks/http.js';
export * from '../src/checks/list-safety.js';
export * from '../src/checks/chat-http.js';
export * from '../src/checks/transport.js';
export * from '../src/checks/records.js';
export * from '../src/checks/media.js';
export * from '../src/checks/isolation.js';
export * from '../src/checks/hook-count.js';
export * from '../src/checks/chat-stored.js';
export * from '../src/checks/outgoing-hook.js';
export * from '../src/checks/field-cases.js';
export * from '../src/checks/answers.js';
export * from '../src/checks/chat-model.js';
export * from '../src/checks/list-probes.js';
export * from '../src/checks/rights.js';

// requests, the answers' shapes, and steps
export type * from '../src/protocol/answers.js';
export * from '../src/protocol/oauth.js';
export * from '../src/protocol/chat.js';
export * from '../src/protocol/chat-signature.js';
export * from '../src/protocol/filters.js';
export * from '../src/protocol/endpoints.js';
export * from '../src/steps/oauth.js';
export * from '../src/steps/api-token.js';
export * from '../src/steps/lifecycle.js';
export * from '../src/steps/chat.js';
export * from '../src/steps/chat-written.js';
export * from '../src/steps/chat-rules.js';
export * from '../src/steps/chat-routes.js';
export * from '../src/steps/chat-effects.js';
export * from '../src/steps/chat-conversation.js';
export * from '../src/steps/chat-races.js';
export * from '../src/steps/lists.js';
export * from '../src/steps/filter-universe.js';
export * from '../src/steps/browser.js';
// live paths: what a target without a control API supplies instead (src/needs/)
export * from '../src/steps/live-code.js';
export * from '../src/steps/live-clock.js';
export * from '../src/steps/live-tokens.js';
export * from '../src/steps/live-operator.js';
export * from '../src/steps/live-chat.js';
export * from '../src/steps/live-page.js';
export * from '../src/steps/live-records.js';
export * from '../src/steps/grant-page.js';
export * from '../src/steps/integrations.js';
export * from '../src/steps/revocation.js';
export * from '../src/steps/chat-http.js';
export * from '../src/steps/transport.js';
export * from '../src/steps/burst.js';
export * from '../src/steps/channel-info.js';
export * from '../src/steps/other-account.js';
export * from '../src/steps/account-address.js';
export * from '../src/steps/not-yet-valid.js';
export * from '../src/steps/hook-count.js';
export * from '../src/steps/chat-stored.js';
export * from '../src/steps/time-window.js';
export * from '../src/steps/outgoing-hooks.js';
export * from '../src/steps/chat-model.js';
export * from '../src/steps/list-probes.js';
export * from '../src/steps/rights.js';
export * from '../src/steps/sweep-step.js';

// generators
export * from '../generators/token-requests.js';
export * from '../generators/refresh-requests.js';
export * from '../generators/bearer-tokens.js';
export * from '../generators/unsigned-jwt.js';
export * from '../generators/oauth-state.js';
export * from '../generators/chat-requests.js';
export * from '../generators/filters.js';
export * from '../generators/chat-http.js';
export * from '../generators/invalid-utf8.js';
export * from '../src/steps/chat-edits.js';
export * from '../generators/chat-valid-space.js';
export * from '../src/steps/chat-valid-space.js';
export * from '../src/checks/chat-valid-space.js';
export { inCase } from '../src/rule-scope.js';
