/**
 * The registry: every spec file, in spec order. A new spec file is added here and nowhere else.
 */
import type { Rule, SpecFile } from '../src/model/rule.js';
import tokenResponse from './2.3-token-response.js';
import credentials from './3.1-credentials.js';
import tokenExchange from './4.1-token-exchange.js';
import accountApiAuth from './5.1-account-api-auth.js';

export const SPEC_FILES: readonly SpecFile[] = [tokenResponse, credentials, tokenExchange, accountApiAuth];

export function allRules(): readonly Rule[] {
  return SPEC_FILES.flatMap((f) => f.rules);
}
