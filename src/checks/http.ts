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

/** Ways a page sends the browser on without a 3xx: a meta refresh, or a script that sets or replaces the location. */
const PAGE_NAVIGATIONS: readonly [RegExp, string][] = [
  [/<meta[^>]+http-equiv\s*=\s*["']?refresh/i, 'a <meta http-equiv="refresh">'],
  [/\blocation(?:\.href)?\s*=(?!=)|\blocation\.(?:replace|assign)\s*\(/, 'a script that sets the location'],
];

/**
 * The answer sends the browser nowhere (RFC 6749 §4.1.2.1): no 3xx, no Location, no Refresh header, and no page that
 * navigates by itself (a meta refresh, a script setting the location).
 */
export const noRedirect: Check = (res) => {
  const location = res.headers.location;
  if (res.status >= 300 && res.status < 400) return fail('no redirect', `expected an error page, observed ${res.status}${location ? ` to ${location.split('?')[0]}` : ''}`);
  if (location) return fail('no redirect', `expected no Location header, observed one to ${location.split('?')[0]}`);
  if (res.headers.refresh) return fail('no redirect', `expected no Refresh header, observed "${String(res.headers.refresh).split('?')[0]}"`);
  const navigation = PAGE_NAVIGATIONS.find(([re]) => re.test(res.text));
  if (navigation) return fail('no redirect', `expected an error page, observed a page that navigates by itself: ${navigation[1]}`);
  return pass('no redirect', `status ${res.status}, no Location, no page navigation`);
};

/** The page cannot be framed by another origin: X-Frame-Options DENY or SAMEORIGIN, or CSP frame-ancestors. */
export const notFramable: Check = (res) => {
  const xfo = (res.headers['x-frame-options'] ?? '').trim().toUpperCase();
  const csp = res.headers['content-security-policy'] ?? '';
  const ancestors = /frame-ancestors\s+([^;]*)/i.exec(csp)?.[1]?.trim();
  if (ancestors !== undefined && !/\*/.test(ancestors)) return pass('not framable', `Content-Security-Policy frame-ancestors ${ancestors}`);
  if (xfo === 'DENY' || xfo === 'SAMEORIGIN') return pass('not framable', `X-Frame-Options: ${xfo}`);
  return fail('not framable', `expected X-Frame-Options DENY or SAMEORIGIN, or a CSP frame-ancestors directive (RFC 6749 §10.13), observed ${xfo ? `X-Frame-Options: ${xfo}` : 'neither'}`);
};
