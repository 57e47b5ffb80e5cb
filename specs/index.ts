/**
 * The registry: every spec file, in spec order. A new spec file is added here and nowhere else.
 */
import type { Rule, SpecFile } from './kit.js';
import integration from './2.1-integration.js';
import secretRefresh from './2.1-secret-refresh.js';
import secretRegeneratedHook from './2.1-secret-regenerated-hook.js';
import credentialLifetimes from './2.2-credential-lifetimes.js';
import tokenFormat from './2.2-token-format.js';
import jwtTime from './2.2-jwt-time.js';
import tokenResponse from './2.3-token-response.js';
import refreshAnswer from './2.3-refresh-answer.js';
import hookAddress from './2.4-hook-address.js';
import channelDefaults from './2.4-channel-defaults.js';
import timeWindow from './2.4-time-window.js';
import chatObjects from './2.5-chat-objects.js';
import profileContact from './2.5-profile-contact.js';
import perMessageEffects from './2.6-per-message-effects.js';
import messageTypes from './2.7-message-types.js';
import emptyText from './2.7-empty-text.js';
import sharedPostUrl from './2.8-shared-post-url.js';
import sharedPostPreviews from './2.8-shared-post-previews.js';
import embeddedSender from './2.11-embedded-sender.js';
import embeddedResolved from './2.11-embedded-resolved.js';
import credentials from './3.1-credentials.js';
import revocation from './3.1-revocation.js';
import chatConnection from './3.2-chat-connection.js';
import scopeAccounts from './3.2-scope-accounts.js';
import integrationDisconnectHooks from './3.2-integration-disconnect-hooks.js';
import deliveryStatus from './3.3-delivery-status.js';
import deliveryById from './3.3-delivery-by-id.js';
import tokenExchange from './4.1-token-exchange.js';
import accessGrantingPage from './4.1-access-granting-page.js';
import accessPageSecurity from './4.1-access-page-security.js';
import refreshAttacks from './4.1-refresh-attacks.js';
import binding from './4.1-binding.js';
import redirectUriVariants from './4.1-redirect-uri-variants.js';
import tokenEndpointHttp from './4.1-token-endpoint-http.js';
import accountChoice from './4.1-account-choice.js';
import pageHardening from './4.1-page-hardening.js';
import filterShapes from './4.2-filter-shapes.js';
import filterOracle from './4.2-filter-oracle.js';
import filterMetamorphic from './4.2-filter-metamorphic.js';
import filterOpen from './4.2-filter-open.js';
import listSafety from './4.2-list-safety.js';
import listLimits from './4.2-list-limits.js';
import listIsolation from './4.2-list-isolation.js';
import listUtf8 from './4.2-list-utf8.js';
import chatEndpoints from './4.3-chat-endpoints.js';
import chatModel from './4.3-chat-model.js';
import chatEdits from './4.3-chat-edits.js';
import chatHistory from './4.3-chat-history.js';
import messageFields from './4.3-message-fields.js';
import connectReact from './4.3-connect-react.js';
import chatHttp from './4.3-chat-http.js';
import chatValidation from './4.3-chat-validation.js';
import editIdentity from './4.3-edit-identity.js';
import commentRules from './4.3-comment-rules.js';
import openPoints from './4.3-open-points.js';
import appliedEffects from './4.3-applied-effects.js';
import conversationRef from './4.3-conversation-ref.js';
import chatRaces from './4.3-chat-races.js';
import forwardsImport from './4.3-forwards-import.js';
import accountApiAuth from './5.1-account-api-auth.js';
import httpRobustness from './5.1-http-robustness.js';
import accountApiMore from './5.1-account-api-more.js';
import staleTokens from './5.1-stale-tokens.js';
import accountAddresses from './5.1-account-addresses.js';
import chatSignature from './5.2-chat-signature.js';
import signatureRoutes from './5.2-signature-routes.js';
import disconnectHook from './5.3-disconnect-hook.js';
import disconnectHookCount from './6-disconnect-hook-count.js';
import outgoingHooks from './6-outgoing-hooks.js';

export const SPEC_FILES: readonly SpecFile[] = [integration, secretRefresh, secretRegeneratedHook, credentialLifetimes, tokenFormat, jwtTime, tokenResponse, refreshAnswer, hookAddress, channelDefaults, timeWindow, chatObjects, profileContact, perMessageEffects, messageTypes, emptyText, sharedPostUrl, sharedPostPreviews, embeddedSender, embeddedResolved, credentials, revocation, chatConnection, scopeAccounts, integrationDisconnectHooks, deliveryStatus, deliveryById, tokenExchange, accessGrantingPage, accessPageSecurity, refreshAttacks, binding, redirectUriVariants, tokenEndpointHttp, accountChoice, pageHardening, filterShapes, filterOracle, filterMetamorphic, filterOpen, listSafety, listLimits, listIsolation, listUtf8, chatEndpoints, chatModel, chatEdits, chatHistory, messageFields, connectReact, chatHttp, chatValidation, editIdentity, commentRules, openPoints, appliedEffects, conversationRef, chatRaces, forwardsImport, accountApiAuth, httpRobustness, accountApiMore, staleTokens, accountAddresses, chatSignature, signatureRoutes, disconnectHook, disconnectHookCount, outgoingHooks];

export function allRules(): readonly Rule[] {
  return SPEC_FILES.flatMap((f) => f.rules);
}
