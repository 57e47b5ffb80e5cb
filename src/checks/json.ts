/**
 * Media-type and JSON checks, with the lenient readings of docs/design.md §2:
 * `application/json; charset=utf-8` is JSON; another `+json` type (problem+json, hal+json) is non_strict where
 * the spec states `application/json`.
 */
import { Ajv, type ErrorObject, type SchemaObject } from 'ajv';
import type { Finding } from '../model/outcome.js';
import { fail, nonStrict, pass } from '../model/outcome.js';
import type { HttpResponse } from '../model/http.js';
import type { Check, Judge } from '../model/check.js';

export function mediaType(res: HttpResponse): string {
  return (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

export function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

export const jsonContentType: Check = (res) => {
  const type = mediaType(res);
  if (type === 'application/json') return pass('JSON Content-Type', res.headers['content-type'] ?? '');
  // text/json is an old alias of JSON (REQ-0-bodies-json, K8): JSON, not the stated type.
  if (isJsonMediaType(type) || type === 'text/json') return nonStrict('JSON Content-Type', `expected application/json, observed ${type} (a JSON type, not the stated one)`);
  return fail('JSON Content-Type', `expected application/json, observed ${type || 'no Content-Type'}`);
};

/**
 * `actual` shows `expected` (docs/verdicts.md, "Answers"): JSON values compared by value, so member order never
 * matters, and an object may carry members beyond those expected (extra members are always allowed).
 */
export function showsValue(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => showsValue(actual[i], e));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const a = actual as Record<string, unknown>;
    return Object.entries(expected).every(([k, v]) => v === undefined || showsValue(a[k], v));
  }
  return Object.is(actual, expected);
}

const parsed = new WeakMap<HttpResponse, unknown>();

/** The body as JSON, or undefined; parsed once per response however many checks read it. */
export function parseJson(res: HttpResponse): unknown {
  if (parsed.has(res)) return parsed.get(res);
  let value: unknown;
  try {
    value = JSON.parse(res.text);
  } catch {
    value = undefined;
  }
  parsed.set(res, value);
  return value;
}

/** A field of the request a response answers (JSON or form body), when the kit sent it through a rule's context. */
export function requestField(res: HttpResponse, name: string): unknown {
  const body = res.request?.body?.toString();
  if (!body) return undefined;
  const type = Object.entries(res.request?.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  if (type.includes('x-www-form-urlencoded')) return new URLSearchParams(body).get(name) ?? undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[name] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The body of a refusal is a JSON object. "Details in the body" (§4.1, §4.3, §7): an empty object `{}` carries none,
 * which is non_strict (REQ-4.1-exchange-400-details, K9).
 */
export const jsonObjectBody: Check = (res) => {
  const body = parseJson(res);
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) {
    return nonStrict('JSON object body', 'expected a JSON object with details, observed an empty object {}');
  }
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? pass('JSON object body')
    : fail('JSON object body', `expected a JSON object body, observed ${res.text ? `"${res.text.slice(0, 80)}"` : 'an empty body'}`);
};

const ajv = new Ajv({ allErrors: true, strict: false });

/** Validates the body against a JSON schema; extra fields are always allowed (docs/design.md §2). */
export function matchesSchema(name: string, schema: SchemaObject): Check {
  const judge = valueMatchesSchema(name, schema);
  return (res) => {
    const body = parseJson(res);
    if (body === undefined) return fail(name, 'expected a JSON body, observed none that parses');
    return judge(body);
  };
}

/** Validates a value a step read (a history element) against a JSON schema, as `matchesSchema` a body. */
export function valueMatchesSchema(name: string, schema: SchemaObject): Judge<unknown> {
  const validate = ajv.compile(schema);
  return (value) => (validate(value) ? pass(name) : fail(name, describeAjvErrors(validate.errors ?? [])));
}

export function describeAjvErrors(errors: readonly ErrorObject[]): string {
  return errors
    .map((e) => `${e.instancePath || 'body'} ${e.message ?? 'is invalid'}${e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : ''}`)
    .join('; ');
}

export function findingFor(name: string, ok: boolean, detail: string): Finding {
  return ok ? pass(name, detail) : fail(name, detail);
}
