/**
 * Checks of the HTTP robustness of the chat routes (§4.3): the Allow header of a 405, and UTF-8 values that come back
 * as sent. A round trip is judged on what the kit observed: the answer to the request that carried the value and the
 * value read back (the history item, the created chat).
 */
import type { Check, Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, nonStrict, pass } from '../model/outcome.js';
import { jsonContentType, jsonObjectBody, parseJson } from './json.js';

/**
 * The body of a chat refusal (R2-C6, R3-C4): §4.3 "400 when data is invalid (details in the body)" and §7 "Structure of
 * the error body: not shown". Any JSON value that carries details passes — an object, and as much an array or a string
 * (the structure is open); one that carries none (`{}`, `[]`, `""`, `null`) is non_strict, as is no body at all; a body
 * that is not JSON fails ("All bodies are JSON"). Only a 4xx is judged here; the status check judges the code.
 */
export const chatErrorBody: Check = (res) => {
  const name = 'error body';
  if (res.status < 400 || res.status >= 500) return pass(name, `status ${res.status}: no refusal body to judge`);
  if ((res.text ?? '') === '') return nonStrict(name, `expected the details in a JSON body, observed a ${res.status} with an empty body`);
  const body = parseJson(res);
  if (body === undefined) return fail(name, `expected a JSON body with details, observed "${res.text.slice(0, 80)}"`);
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) return jsonObjectBody(res);
  const carries = Array.isArray(body) ? body.length > 0 : typeof body === 'string' ? body !== '' : body !== null;
  return carries
    ? pass(name, `a JSON ${Array.isArray(body) ? 'array' : typeof body} with details (the structure is not shown, §7)`)
    : nonStrict(name, `expected details in the body, observed ${JSON.stringify(body)}`);
};

/**
 * A chat answer whose body the spec leaves unnamed (a refusal) or states away ("Response 200 with no body"): §0 "All
 * bodies are JSON unless stated otherwise" and §4.3 "Success and error responses carry Content-Type: application/json"
 * (issue 32: read at every route and class of answer, the wrong-method 405 included). No body passes (`chatErrorBody`
 * judges a refusal without one); a body must be JSON under a JSON media type.
 */
export const chatBodyIsJson: Check = (res) => {
  const name = 'JSON body';
  if (res.status >= 500 || (res.text ?? '') === '') return pass(name, `status ${res.status}, no body`);
  const typed = jsonContentType(res);
  if (typed.verdict === 'failed') return typed;
  return parseJson(res) === undefined ? fail(name, `expected the ${res.status} body to parse as JSON, observed "${res.text.slice(0, 80)}"`) : typed;
};

/**
 * RFC 9110 §15.5.6: a 405 carries Allow, listing the methods the resource serves. The spec does not restate it
 * (REQ-4.3-http-*-wrong-method, K38): a 405 passes with or without Allow; an Allow that leaves out `method` (the
 * route's own) is non_strict. Another status is judged by the status check.
 */
export function allowOn405(method: string): Check {
  const name = 'Allow on 405';
  return (res) => {
    if (res.status !== 405) return pass(name, `status ${res.status}: no Allow required`);
    const allow = res.headers.allow;
    if (allow === undefined) return pass(name, 'a 405 without Allow (RFC 9110 asks for it; the spec does not restate it)');
    const listed = allow.split(',').map((m) => m.trim().toUpperCase());
    return listed.includes(method)
      ? pass(name, `Allow: ${allow}`)
      : nonStrict(name, `expected Allow to name ${method} (the route's method), observed Allow: ${allow}`);
  };
}

/** Code points of a text, for a finding that shows what changed where bytes were mangled (`U+00D0 U+009F`). */
export function codePoints(text: string, max = 12): string {
  const all = [...text].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  return all.length > max ? `${all.slice(0, max).join(' ')} …(${all.length})` : all.join(' ');
}

function sameText(name: string, what: string, sent: string, seen: unknown): ReturnType<Check> {
  if (seen === sent) return pass(name, `${what} identical (${[...sent].length} characters)`);
  if (typeof seen !== 'string') return fail(name, `expected ${what} ${codePoints(sent)}, observed ${seen === undefined ? 'none' : JSON.stringify(seen)?.slice(0, 60)}`);
  // The same text in another Unicode normalisation form (a store that normalises to NFC): not literally as sent, but
  // the same characters (K39).
  if (seen.normalize('NFC') === sent.normalize('NFC')) return nonStrict(name, `${what} in another normalisation form: expected ${codePoints(sent)}, observed ${codePoints(seen)}`);
  return fail(name, `expected ${what} ${codePoints(sent)}, observed ${codePoints(seen)}`);
}

/** A value sent in one request and read back in another. */
export interface RoundTrip {
  /** The answer to the request that carried the value. */
  readonly sent: HttpResponse;
  /** What the target gave back for it (undefined: it is not there). */
  readonly readBack: unknown;
}

/** The request carrying the value was accepted (200, as §4.3 answers a valid request). */
export const roundTripAccepted: Judge<RoundTrip> = (r) =>
  r.sent.status === 200
    ? pass('accepted', 'status 200')
    : fail('accepted', `expected 200 for a valid request carrying the value, observed ${r.sent.status}`);

/** The value read back is the one sent, code point for code point (so byte for byte in UTF-8). */
export function readBackIs(what: string, sent: string): Judge<RoundTrip> {
  return (r) => sameText(`${what} round-trips`, what, sent, r.readBack);
}

/** A name sent when creating a chat and with a message: the create-chat answer is the first place it comes back. */
export interface NameRoundTrip extends RoundTrip {
  readonly created: HttpResponse;
}

/** The name of the user in the create-chat answer is the one sent (§4.3 answers the user object). */
export function createdUserName(sent: string): Judge<NameRoundTrip> {
  return (r) => {
    const b = parseJson(r.created) as { user?: { name?: unknown } } | undefined;
    return sameText('user.name in the answer', 'user.name', sent, b?.user?.name);
  };
}
