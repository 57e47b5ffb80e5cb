/**
 * "All bodies are JSON unless stated otherwise" (§0), read leniently for the account API, whose media type the spec
 * does not show: any JSON media type (application/json, application/hal+json, application/problem+json) passes, and a
 * 204 carries no body to judge.
 */
import type { Check } from '../model/check.js';
import { fail, pass } from '../model/outcome.js';
import { isJsonMediaType, mediaType, parseJson } from './json.js';
import { status } from './status.js';

export const jsonBodyOfAnyJsonType: Check = (res) => {
  const name = 'JSON body';
  if (res.status === 204) return pass(name, '204, no body');
  const type = mediaType(res);
  if (!isJsonMediaType(type)) return fail(name, `expected a JSON media type, observed ${type || 'no Content-Type'}`);
  if (parseJson(res) === undefined) return fail(name, `expected the ${type} body to parse as JSON, observed "${res.text.slice(0, 80)}"`);
  return pass(name, `${res.status} ${type}`);
};

/**
 * The answer of GET /api/v4/account that a rule takes as "the token works" (issue 39 item 4): not only a 200 but the
 * protocol's answer — §0 "All bodies are JSON", so a JSON media type and a JSON object holding the account's members.
 * §4.1 does not show the body ("Response body of GET /api/v4/account: not shown"), so no member is named; an object
 * with none is no account. A 200 HTML page (a login page, a proxy's) fails: the token opened nothing. Only a 2xx is
 * read; the status check judges the code.
 */
export const accountBody: Check = (res) => {
  const name = 'account body';
  if (res.status < 200 || res.status >= 300) return pass(name, `status ${res.status}: no account to read`);
  const typed = jsonBodyOfAnyJsonType(res);
  if (typed.verdict === 'failed') return fail(name, typed.detail);
  const body = parseJson(res);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail(name, `expected a JSON object (the account), observed ${JSON.stringify(body)?.slice(0, 80)}`);
  const members = Object.keys(body);
  return members.length > 0 ? pass(name, `a JSON object of ${members.length} members`) : fail(name, 'expected the account\'s members, observed an empty object {}');
};

/** An account request that works: 200 and the account's JSON object (`accountBody`). */
export const accountWorks = [status(200), accountBody] as const;
