/**
 * HTTP robustness checks over the endpoint catalogue: answers judged on their class where the spec names no code.
 */
import type { Check } from '../model/check.js';
import { fail, nonStrict, pass } from '../model/outcome.js';
import { briefBody } from './status.js';

/**
 * One of `codes` passes; another 4xx is non_strict; a 2xx or 3xx fails (the request was taken as valid). For answers
 * where several codes are right (413 or 400 for an oversized body).
 */
export function statusOneOf(codes: readonly number[]): Check {
  const name = `status ${codes.join(' or ')}`;
  return (res) => {
    if (codes.includes(res.status)) return pass(name, `status ${res.status}`);
    if (res.status >= 400 && res.status < 500) return nonStrict(name, `expected ${codes.join(' or ')}, observed ${res.status} (another refusal)`);
    return fail(name, `expected ${codes.join(' or ')}, observed ${res.status}${briefBody(res)}`);
  };
}

/** A token endpoint answer that issued no token: whatever the status, the body has no access_token. */
export const noTokenIssued: Check = (res) =>
  /"access_token"\s*:/.test(res.text)
    ? fail('no token issued', `expected no token, observed status ${res.status} with an access_token in the body`)
    : pass('no token issued', `status ${res.status}, no access_token`);
