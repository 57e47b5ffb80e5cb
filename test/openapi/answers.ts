/**
 * Judges an answer against the OpenAPI document: the operation of its path and method, the response of its status,
 * the media type of its Content-Type, and its body against that media type's schema (ajv, draft 2020-12, the dialect
 * of OpenAPI 3.1). Returns what does not hold, empty when the answer is described.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from '../../src/openapi/build.js';

export interface Answered {
  readonly method: string;
  /** The request path, without the query string. */
  readonly path: string;
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

type Content = Record<string, { schema?: { $ref?: string } }>;
type Operation = { responses: Record<string, { content?: Content }>; requestBody?: { content: Content } };

/** A request as sent: its body and Content-Type, judged against the operation's request body. */
export interface Sent {
  readonly method: string;
  readonly path: string;
  readonly contentType?: string;
  readonly body?: string;
}

const BASE = 'https://conformance-kit.invalid/openapi';

/**
 * Ajv for the document's schemas: strict, but with union types (`["string", "null"]`, plain 2020-12) and without
 * strictRequired (a conditional `then: { required }` names members its parent declares, as JSON Schema intends).
 */
export function schemaAjv(): Ajv2020 {
  return new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true, discriminator: true });
}

/** The document's component schemas as one schema ajv can resolve `#/components/schemas/<name>` references in. */
function compiler(doc: OpenApiDocument): (schema: unknown) => ValidateFunction {
  const ajv = schemaAjv();
  const rewritten = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', `"${BASE}#/$defs/`)) as Record<string, unknown>;
  ajv.addSchema({ $id: BASE, $defs: rewritten });
  const cache = new Map<string, ValidateFunction>();
  return (schema) => {
    const key = JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${BASE}#/$defs/`);
    let v = cache.get(key);
    if (!v) cache.set(key, (v = ajv.compile(JSON.parse(key) as object)));
    return v;
  };
}

function findings(where: string, validate: ValidateFunction, value: unknown): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${where}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** The path template a request path matches, literal segments preferred over variables. */
export function templateOf(doc: OpenApiDocument, path: string): string | undefined {
  const segments = path.split('/');
  const matching = Object.keys(doc.paths).filter((t) => {
    const parts = t.split('/');
    return parts.length === segments.length && parts.every((p, i) => /^\{[^}]+\}$/.test(p) ? segments[i] !== '' : p === segments[i]);
  });
  const literals = (t: string) => t.split('/').filter((p) => !p.startsWith('{')).length;
  return matching.sort((a, b) => literals(b) - literals(a))[0];
}

export function answerJudge(doc: OpenApiDocument): (a: Answered) => string[] {
  const compile = compiler(doc);
  return (a) => {
    const where = `${a.method} ${a.path} ${a.status}`;
    const template = templateOf(doc, a.path);
    if (!template) return [`${where}: no path of the document matches`];
    const operation = doc.paths[template]![a.method.toLowerCase()] as Operation | undefined;
    if (!operation) return [`${where}: ${template} has no ${a.method}`];
    const response = operation.responses[String(a.status)];
    if (!response) return [`${where}: ${a.method} ${template} describes no ${a.status} (it describes ${Object.keys(operation.responses).join(', ')})`];
    if (!response.content) return a.text === '' ? [] : [`${where}: described without a body, answered ${JSON.stringify(a.text.slice(0, 80))}`];
    const type = a.contentType.split(';')[0]!.trim().toLowerCase();
    const media = response.content[type];
    if (!media) return [`${where}: answered ${type}, described as ${Object.keys(response.content).join(' or ')}`];
    if (!media.schema) return [];
    let body: unknown;
    try {
      body = JSON.parse(a.text);
    } catch {
      return [`${where}: the body is not JSON: ${JSON.stringify(a.text.slice(0, 80))}`];
    }
    const validate = compile(media.schema);
    return findings(where, validate, body);
  };
}

/** The request body's schema holds what was sent (a form-encoded body read as its fields). */
export function requestJudge(doc: OpenApiDocument): (s: Sent) => string[] {
  const compile = compiler(doc);
  return (s) => {
    const where = `${s.method} ${s.path} request`;
    const template = templateOf(doc, s.path);
    const operation = template === undefined ? undefined : doc.paths[template]![s.method.toLowerCase()] as Operation | undefined;
    if (!operation) return [`${where}: no operation of the document`];
    if (!operation.requestBody) return s.body === undefined || s.body === '' ? [] : [`${where}: a body was sent where none is described`];
    const type = (s.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const schema = operation.requestBody.content[type]?.schema;
    if (!schema) return [`${where}: sent as ${type}, described as ${Object.keys(operation.requestBody.content).join(' or ')}`];
    const value = type === 'application/x-www-form-urlencoded' ? Object.fromEntries(new URLSearchParams(s.body ?? '')) : JSON.parse(s.body ?? 'null') as unknown;
    const validate = compile(schema);
    return findings(where, validate, value);
  };
}
