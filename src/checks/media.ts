/**
 * "All bodies are JSON unless stated otherwise" (§0), read leniently for the account API, whose media type the spec
 * does not show: any JSON media type (application/json, application/hal+json, application/problem+json) passes, and a
 * 204 carries no body to judge.
 */
import type { Check } from '../model/check.js';
import { fail, pass } from '../model/outcome.js';
import { isJsonMediaType, mediaType, parseJson } from './json.js';

export const jsonBodyOfAnyJsonType: Check = (res) => {
  const name = 'JSON body';
  if (res.status === 204) return pass(name, '204, no body');
  const type = mediaType(res);
  if (!isJsonMediaType(type)) return fail(name, `expected a JSON media type, observed ${type || 'no Content-Type'}`);
  if (parseJson(res) === undefined) return fail(name, `expected the ${type} body to parse as JSON, observed "${res.text.slice(0, 80)}"`);
  return pass(name, `${res.status} ${type}`);
};
