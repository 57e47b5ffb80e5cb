/**
 * The OpenAPI 3.1 description of the service, assembled from the kit's protocol declarations: the endpoint catalogue
 * (src/protocol/endpoints.ts), the chat paths and their methods (chat.ts), the filter language (filters.ts), the
 * signature headers (chat-signature.ts), the disconnect hook's parameters (src/hook/sign.ts), and what each route takes
 * and answers (operations.ts, schemas.ts). Nothing about the service is stated here: a route, status or shape missing
 * from the document is added to those declarations (test/openapi/document.test.ts checks the document against the
 * spec's own tables).
 *
 * `conformance openapi` prints it, `npm run docs` writes docs/openapi.json, the emulator serves it at /openapi.json.
 */
import { readFileSync } from 'node:fs';
import { HOOK_PARAMETER_MEANINGS, HOOK_PARAMETERS } from '../hook/sign.js';
import { KIT_PACKAGE, SPEC_PATH } from '../paths.js';
import { CHAT_SIGNATURE_HEADERS, EMPTY_MD5 } from '../protocol/chat-signature.js';
import { CHAT_METHODS, CHAT_PATH_VARIABLES, chatPaths, chatTemplate, type ChatPathName } from '../protocol/chat.js';
import { ENDPOINTS, type Endpoint } from '../protocol/endpoints.js';
import {
  CATALOG_OPERATIONS, CHAT_OPERATIONS, CONSENT_PAGE, endpointOperation, REDIRECT_PARAMETERS, SCHEMAS, type Answer, type Body, type Operation,
  type QueryParameter,
} from '../protocol/operations.js';
import { filterSchema, type Schema } from '../protocol/schemas.js';

export type OpenApiDocument = Record<string, unknown> & {
  readonly paths: Record<string, Record<string, Record<string, unknown>>>;
  readonly components: { readonly schemas: Record<string, Schema> } & Record<string, unknown>;
};

/** Placeholder origins of the spec's three addresses; `conformance emulator` prints the real ones (BASE_URL, AUTH_URL, CHAT_URL). */
export const SERVER_PLACEHOLDERS = {
  base_url: { default: 'https://account.example.com', description: 'Address of one customer account (each account has its own sub-domain): BASE_URL.' },
  auth_url: { default: 'https://auth.example.com', description: 'Address of the access-granting page: AUTH_URL.' },
  chat_url: { default: 'https://chat.example.com', description: 'Address of the chat interface: CHAT_URL.' },
} as const;

type Address = keyof typeof SERVER_PLACEHOLDERS;
const server = (address: Address) => ({ url: `{${address}}`, description: SERVER_PLACEHOLDERS[address].description, variables: { [address]: SERVER_PLACEHOLDERS[address] } });

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function content(body: Body): Record<string, unknown> {
  return Object.fromEntries(body.types.map((type) => [type, body.schema === undefined ? {} : { schema: ref(body.schema) }]));
}

function responses(answers: Readonly<Record<number, Answer>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(answers).map(([status, a]) => [status, { description: a.description, ...(a.body ? { content: content(a.body) } : {}) }]));
}

function queryParameter(p: QueryParameter): Record<string, unknown> {
  return {
    name: p.name, in: 'query', description: p.description, required: p.required ?? false, schema: p.schema,
    ...(p.style ? { style: p.style } : {}), ...(p.explode !== undefined ? { explode: p.explode } : {}),
  };
}

interface OperationSite {
  readonly id: string;
  readonly tag: string;
  readonly security: readonly Record<string, string[]>[];
  readonly parameters?: readonly Record<string, unknown>[];
}

function operation(op: Operation, site: OperationSite): Record<string, unknown> {
  const parameters = [...(site.parameters ?? []), ...(op.query ?? []).map(queryParameter)];
  return {
    operationId: site.id,
    tags: [site.tag],
    summary: op.summary,
    description: [`§${op.section}.`, op.description].filter(Boolean).join(' '),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.request ? { requestBody: { required: true, content: content(op.request) } } : {}),
    responses: responses(op.answers),
    security: site.security,
  };
}

const camel = (words: string): string => words.replace(/[ _-]+([a-z])/g, (_m, c: string) => c.toUpperCase());

function endpointPath(endpoint: Endpoint): [string, string, Record<string, unknown>] {
  const op = endpointOperation(endpoint.name, filterSchema);
  if (!op) throw Object.assign(new Error(`no operation is declared for the endpoint ${endpoint.name} (src/protocol/operations.ts)`), { code: 'ERR_OPENAPI_DECLARATION' });
  const security: Record<string, string[]>[] = endpoint.auth === 'bearer' ? [{ oauth2: [] }, { bearer: [] }] : [];
  return [endpoint.path, endpoint.method.toLowerCase(), operation(op, { id: camel(endpoint.name), tag: endpoint.auth === 'bearer' ? (endpoint.name.startsWith('list ') ? 'lists' : 'account') : 'oauth', security })];
}

const CATALOG_VARIABLE_MEANING: Readonly<Record<string, string>> = {
  pipeline_id: 'A pipeline id (the ids `filter[pipeline_id]` takes).',
  status_id: 'A status id.',
  field_id: 'A custom field id (the ids `filter[custom_fields_values]` takes).',
};

/** A catalog route (not in the spec): a bearer GET, its path variables from the template. */
function catalogPath(path: string, op: Operation): [string, string, Record<string, unknown>] {
  const parameters = [...path.matchAll(/\{([a-z_]+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, description: CATALOG_VARIABLE_MEANING[name!], schema: { type: 'integer' } }));
  const id = camel(path.replace(/^\/api\/v4\//, 'catalog ').replace(/\{([a-z_]+)\}/g, 'by $1').replace(/\//g, ' '));
  return [path, 'get', operation(op, { id, tag: 'catalog', security: [{ oauth2: [] }, { bearer: [] }], parameters })];
}

const PATH_VARIABLE_MEANING: Readonly<Record<string, string>> = {
  channel_id: 'The channel identifier.',
  scope_id: 'The scope_id connect returned (§2.4).',
  msgid: 'A message id (new_message.msgid: the chat-interface id; the emulator\'s one-origin shape also takes the integration-side msgid).',
  conversation_id: 'The integration-side chat id (public clients send the chat-interface chat id; the emulator takes either).',
};

function chatPath(route: ChatPathName): [string, string, Record<string, unknown>] {
  const parameters = [
    ...CHAT_PATH_VARIABLES[route].map((name) => ({ name, in: 'path', required: true, description: PATH_VARIABLE_MEANING[name], schema: { type: 'string' } })),
    { $ref: '#/components/parameters/Date' },
    { $ref: '#/components/parameters/ContentMD5' },
  ];
  return [chatTemplate(route), CHAT_METHODS[route].toLowerCase(), operation(CHAT_OPERATIONS[route], { id: camel(`chat ${route}`), tag: 'chat', security: [{ chatSignature: [] }], parameters })];
}

const SIGNATURE_DESCRIPTION = [
  `§5.2: every chat request carries \`${CHAT_SIGNATURE_HEADERS.contentType}: application/json\`, \`${CHAT_SIGNATURE_HEADERS.date}\` (RFC 2822), \`${CHAT_SIGNATURE_HEADERS.md5}\``,
  `(lower-case hex MD5 of the body bytes; for GET, of the empty string: ${EMPTY_MD5}) and \`${CHAT_SIGNATURE_HEADERS.signature}\`:`,
  'the lower-case hex HMAC-SHA1, keyed with the channel secret, of five lines joined by a line feed: the upper-case method, the Content-MD5 value,',
  'the Content-Type value, the Date value, the request path without its query string. An incorrect signature yields 403.',
  'The signature changes with every request: it is no static key (npm `conformance-kit/chat-signature` computes it).',
].join(' ');

function specTitle(): string {
  const first = readFileSync(SPEC_PATH, 'utf8').split('\n', 1)[0] ?? '';
  return first.replace(/^#\s*/, '').trim();
}

export function buildOpenApi(): OpenApiDocument {
  const tokenPath = ENDPOINTS.find((e) => e.auth === 'client')!.path;
  const paths: OpenApiDocument['paths'] = {};
  const add = ([path, method, op]: [string, string, Record<string, unknown>], servers?: readonly unknown[]) => {
    paths[path] ??= servers ? { servers } as unknown as Record<string, Record<string, unknown>> : {};
    paths[path]![method] = op;
  };
  for (const endpoint of ENDPOINTS) add(endpointPath(endpoint));
  for (const [path, op] of Object.entries(CATALOG_OPERATIONS)) add(catalogPath(path, op));
  add([CONSENT_PAGE.path, 'get', operation(CONSENT_PAGE.operation, { id: 'consentPage', tag: 'oauth', security: [] })], [server('auth_url')]);
  for (const route of Object.keys(chatPaths) as ChatPathName[]) add(chatPath(route), [server('chat_url')]);
  return {
    openapi: '3.1.0',
    info: {
      title: specTitle(),
      version: KIT_PACKAGE.version,
      description: [
        `Generated by ${KIT_PACKAGE.name} from its protocol declarations, as specs/service.md states the service.`,
        'Where the spec says "not shown", the description gives the live service\'s shape and says so (docs/field-notes.md).',
        'The three addresses are server variables: {base_url} (the default servers), {auth_url} (the access-granting page), {chat_url} (the chat interface).',
      ].join(' '),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [server('base_url')],
    tags: [
      { name: 'oauth', description: '§4.1 Authorization and tokens.' },
      { name: 'account', description: '§4.1 Account API calls, §5.1.' },
      { name: 'lists', description: '§4.2 List filtering.' },
      { name: 'chat', description: '§4.3 Chat interface, signed as §5.2 states.' },
      { name: 'catalog', description: 'Not in the spec: the pipelines, statuses and custom fields clients read before they filter (§4.2), as the live service serves them.' },
    ],
    paths,
    webhooks: {
      disconnect: {
        get: {
          operationId: 'disconnectHook',
          summary: 'The disconnect hook, sent to the integration\'s disconnect hook URL when a user disconnects it',
          description: '§4.1 "Disconnect hook", §5.3, §6: a GET to the disconnect hook URL. Authenticity: `signature` is the hex HMAC-SHA256 of `<client_uuid>|<account_id>` keyed with the integration secret key; the receiver checks `client_uuid` equals its integration ID and compares in constant time.',
          parameters: HOOK_PARAMETERS.map((name) => queryParameter({ name, description: HOOK_PARAMETER_MEANINGS[name], schema: { type: 'string' }, required: true })),
          responses: { 200: { description: 'Received. The spec states no answer; the service does not read it.' } },
        },
      },
      authorizationRedirect: {
        get: {
          operationId: 'authorizationRedirect',
          summary: 'The redirect to the Redirect URI after Allow or Deny (also the widget installation hook)',
          description: '§4.1 steps 3–5, §6.',
          parameters: REDIRECT_PARAMETERS.map(queryParameter),
          responses: { 200: { description: 'The integration\'s page.' } },
        },
      },
    },
    components: {
      schemas: { ...SCHEMAS },
      parameters: {
        Date: { name: CHAT_SIGNATURE_HEADERS.date, in: 'header', required: true, description: '§5.2: current time in RFC 2822 format, e.g. `Thu, 29 Oct 2020 11:59:55 +0000`; signed.', schema: { type: 'string' } },
        ContentMD5: { name: CHAT_SIGNATURE_HEADERS.md5, in: 'header', required: true, description: `§5.2: lower-case hex MD5 of the request body; for GET, of the empty string (${EMPTY_MD5}); signed.`, schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: '§4.1: the authorization code grant and the refresh grant; the access-granting page is at {auth_url}/oauth, the token endpoint at {base_url}/oauth2/access_token. Permission set details: not shown (§5.1.5).',
          flows: { authorizationCode: { authorizationUrl: `${SERVER_PLACEHOLDERS.auth_url.default}${CONSENT_PAGE.path}`, tokenUrl: tokenPath, refreshUrl: tokenPath, scopes: {} } },
        },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: '§5.1: `Authorization: Bearer <ACCESS_TOKEN>`, an access token from the exchange or a long-lived token.' },
        chatSignature: { type: 'apiKey', in: 'header', name: CHAT_SIGNATURE_HEADERS.signature, description: SIGNATURE_DESCRIPTION },
      },
    },
  };
}

/** The document as `docs/openapi.json` holds it. */
export function openApiJson(): string {
  return `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
}
