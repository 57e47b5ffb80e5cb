/**
 * The OpenAPI description (src/openapi/build.ts) is a valid OpenAPI 3.1 document, its schemas compile as draft
 * 2020-12, and it holds what the protocol declarations and the spec's tables hold: every endpoint and chat route with
 * its method, every §4.2 filter parameter on its lists, the signature headers, the disconnect hook's parameters.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { specTables } from '../../src/docs/spec-tables.js';
import { HOOK_PARAMETERS } from '../../src/hook/sign.js';
import { buildOpenApi } from '../../src/openapi/build.js';
import { CHAT_METHODS, chatPaths, chatTemplate, type ChatPathName } from '../../src/protocol/chat.js';
import { ENDPOINTS } from '../../src/protocol/endpoints.js';
import { LISTS, type ListName } from '../../src/protocol/filters.js';
import { schemaAjv, templateOf } from './answers.js';

const doc = buildOpenApi();
type Op = { parameters?: { name?: string; in?: string; schema?: { properties?: Record<string, unknown> }; $ref?: string }[]; security?: unknown[] };
const op = (path: string, method: string): Op => doc.paths[path]![method.toLowerCase()] as Op;

type Node = { $ref?: string; properties?: Record<string, Node>; items?: Node; oneOf?: Node[]; anyOf?: Node[]; allOf?: Node[] };

/** The node and every branch it combines (oneOf, anyOf, allOf), references resolved. */
function branches(schema: Node): Node[] {
  const node = schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] as Node : schema;
  return [node, ...[...(node.oneOf ?? []), ...(node.anyOf ?? []), ...(node.allOf ?? [])].flatMap(branches)];
}

/** Whether `path` names a member below `schema` (`[]` an array's items). */
function hasMember(schema: unknown, path: readonly string[]): boolean {
  let nodes = [schema as Node];
  for (const key of path) {
    nodes = nodes.flatMap(branches).flatMap((n) => (key === '[]' ? (n.items ? [n.items] : []) : (n.properties?.[key] ? [n.properties[key]!] : [])));
    if (nodes.length === 0) return false;
  }
  return true;
}

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1 (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('a broken document is refused by the same validator (the check can fail)', async () => {
    const broken = structuredClone(doc) as Record<string, unknown>;
    (broken.paths as Record<string, Record<string, unknown>>)['/api/v4/account']!.get = { responses: 'none' };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('every component schema compiles as JSON Schema draft 2020-12 (ajv strict)', () => {
    const ajv = schemaAjv();
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(() => ajv.compile(schema as object), name).not.toThrow();
    }
  });

  it('describes every endpoint of the catalogue and every chat route with its method', () => {
    for (const e of ENDPOINTS) expect(op(e.path, e.method), `${e.method} ${e.path}`).toBeDefined();
    for (const route of Object.keys(chatPaths) as ChatPathName[]) {
      const template = chatTemplate(route);
      expect(op(template, CHAT_METHODS[route]), `${CHAT_METHODS[route]} ${template}`).toBeDefined();
      // A real path of the route finds its own template, not another route's.
      const real = decodeURIComponent((chatPaths[route] as (...s: string[]) => string)('a', 'b').split('?')[0]!);
      expect(templateOf(doc, real)).toBe(template);
    }
  });

  it('every §4.2 filter parameter of the spec\'s tables is a member of the filter of each list it belongs to, and no other', () => {
    const filterOf = (list: ListName) => op(`/api/v4/${list}`, 'GET').parameters!.find((p) => p.name === 'filter')!.schema!.properties!;
    const rows = specTables().filter((t) => t.section === '4.2').flatMap((t) => t.rows).map((r) => r.key).filter((k) => /filter\[[a-z_]+\]$/.test(k));
    expect(rows.length).toBeGreaterThan(10);
    for (const key of rows) {
      const field = /filter\[([a-z_]+)\]$/.exec(key)![1]!;
      const only = /^4\.2\/api\/v4\/([a-z]+) /.exec(key)?.[1];
      for (const list of LISTS) {
        const expected = only === undefined || only === list;
        expect(field in filterOf(list), `${key} on ${list}`).toBe(expected);
      }
    }
  });

  it('every field of the spec\'s body and answer tables (§2.3–§2.11, §4.1, §4.3) is a member of the schema it belongs to; every query table row a parameter', () => {
    // Where each table's fields live: a component schema and the path below it (`[]` steps into an array's items).
    const roots: Record<string, readonly (readonly [string, ...string[]])[]> = {
      '2.3': [['TokenResponse']], '2.4': [['Connection']], '2.5': [['CreateChatRequest', 'user']], '2.6': [['CreateChatRequest', 'source']],
      '2.7': [['MessageEvent', 'payload', 'message']], '2.8': [['MessageEvent', 'payload', 'message', 'shared_post']],
      '2.9': [['MessageEvent', 'payload', 'message', 'delivery_status']], '2.10': [['MessageEvent', 'payload', 'message', 'post']],
      '2.11': [['MessageEvent', 'payload', 'reply_to', 'message']],
      'Exchange code or refresh token': [['TokenRequest']], 'Connect channel': [['ConnectRequest']], 'Create chat': [['CreateChatRequest']],
      'Send, edit or import a message': [['MessageEvent'], ['MessageEvent', 'payload'], ['NewMessageAnswer']],
      'Update delivery status': [['DeliveryStatusRequest']], 'Get chat history': [['History', 'messages', '[]']], 'Reaction': [['ReactRequest']],
    };
    const queries: Record<string, string> = { 'Access-granting page': '/oauth', 'Get chat history': chatTemplate('history') };
    const missing: string[] = [];
    let checked = 0;
    for (const table of specTables().filter((t) => /^(2\.([3-9]|1[01])|4\.1|4\.3)$/.test(t.section))) {
      const where = table.section.startsWith('2.') ? table.section : table.heading;
      if (/^Query/.test(table.header[0]!)) {
        const path = queries[where]!;
        const names = (doc.paths[path]!.get!.parameters as { name: string }[]).map((p) => p.name);
        for (const row of table.rows) { checked += 1; if (!names.includes(row.cells[0]!)) missing.push(`${row.key}: no query parameter of GET ${path}`); }
        continue;
      }
      if (!/field$/i.test(table.header[0]!)) continue;
      for (const row of table.rows) {
        for (const name of row.cells[0]!.split(' / ')) {
          checked += 1;
          const path = name.replace(/\]/g, '').split('[');
          if (!roots[where]!.some(([schema, ...below]) => hasMember(doc.components.schemas[schema]!, [...below, ...path]))) missing.push(`${row.key}: not in ${roots[where]!.map((r) => r.join('.')).join(' or ')}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('signs every chat operation with X-Signature and asks for Date and Content-MD5; the account API takes OAuth 2 or a bearer', () => {
    const schemes = doc.components.securitySchemes as Record<string, { type: string; in?: string; name?: string; flows?: { authorizationCode?: { tokenUrl?: string } } }>;
    expect(schemes.chatSignature).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Signature' });
    expect(schemes.oauth2!.flows!.authorizationCode!.tokenUrl).toBe('/oauth2/access_token');
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const route of Object.keys(chatPaths) as ChatPathName[]) {
      const o = op(chatTemplate(route), CHAT_METHODS[route]);
      expect(o.security).toEqual([{ chatSignature: [] }]);
      expect(o.parameters!.map((p) => p.$ref).filter(Boolean)).toEqual(['#/components/parameters/Date', '#/components/parameters/ContentMD5']);
    }
    for (const e of ENDPOINTS.filter((x) => x.auth === 'bearer')) expect(op(e.path, e.method).security).toEqual([{ oauth2: [] }, { bearer: [] }]);
  });

  it('ships in the package as conformance-kit/openapi.json (docs/openapi.json, kept current by test/specs/docs.test.ts)', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown>; files: string[] };
    expect(manifest.exports['./openapi.json']).toBe('./docs/openapi.json');
    expect(manifest.files).toContain('docs');
    expect(JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'))).toEqual(doc);
  });

  it('describes the disconnect hook as a webhook with its four signed parameters', () => {
    const hook = (doc.webhooks as Record<string, { get: Op & { description: string } }>).disconnect!.get;
    expect(hook.parameters!.map((p) => p.name)).toEqual([...HOOK_PARAMETERS]);
    expect(hook.description).toMatch(/HMAC-SHA256/);
  });
});
