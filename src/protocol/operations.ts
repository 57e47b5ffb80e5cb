/**
 * What each route of the service takes and answers, by status (§4, §7): the request body and query parameters, and
 * for each status its meaning and body, by the name of a shape in SCHEMAS. The routes themselves (method, path, how a
 * caller authenticates) are the endpoint catalogue's (./endpoints.ts) and the chat paths' (./chat.ts); this adds what
 * an API description needs beside them. A status the spec does not state, or a body it does not show, says where it
 * comes from (the live service, docs/field-notes.md).
 */
import type { ChatPathName } from './chat.js';
import { LISTS, QUERY_LISTS, type ListName } from './filters.js';
import {
  ACCOUNT, ACCOUNT_WITH_PARAMETER, CATALOG, CHAT_ERROR, CONNECT_ANSWER, CONNECT_REQUEST, CREATE_CHAT_ANSWER, CREATE_CHAT_REQUEST, DELIVERY_STATUS_REQUEST,
  CUSTOM_FIELD, CUSTOM_FIELDS, CUSTOMER_STATUS, CUSTOMER_STATUSES, DISCONNECT_REQUEST, HISTORY_ANSWER, LIVE_SERVICE, listPage, MESSAGE_EVENT, NEW_MESSAGE_ANSWER, PROBLEM, REACT_REQUEST, type Schema, TOKEN_REQUEST,
  PIPELINE, PIPELINE_STATUS, PIPELINE_STATUSES, PIPELINES, TOKEN_RESPONSE, TYPING_REQUEST,
} from './schemas.js';

const listSchemaName = (list: ListName): string => `${list[0]!.toUpperCase()}${list.slice(1)}Page`;

/** Every named shape, as `components.schemas` holds it. */
export const SCHEMAS: Readonly<Record<string, Schema>> = {
  TokenRequest: TOKEN_REQUEST, TokenResponse: TOKEN_RESPONSE, Problem: PROBLEM, Account: ACCOUNT,
  ...Object.fromEntries(LISTS.map((list) => [listSchemaName(list), listPage(list)])),
  ConnectRequest: CONNECT_REQUEST, Connection: CONNECT_ANSWER, DisconnectRequest: DISCONNECT_REQUEST,
  CreateChatRequest: CREATE_CHAT_REQUEST, CreatedChat: CREATE_CHAT_ANSWER, MessageEvent: MESSAGE_EVENT, NewMessageAnswer: NEW_MESSAGE_ANSWER,
  DeliveryStatusRequest: DELIVERY_STATUS_REQUEST, History: HISTORY_ANSWER, TypingRequest: TYPING_REQUEST, ReactRequest: REACT_REQUEST,
  ChatError: CHAT_ERROR,
  Pipelines: PIPELINES, Pipeline: PIPELINE, PipelineStatuses: PIPELINE_STATUSES, PipelineStatus: PIPELINE_STATUS,
  CustomerStatuses: CUSTOMER_STATUSES, CustomerStatus: CUSTOMER_STATUS, CustomFields: CUSTOM_FIELDS, CustomField: CUSTOM_FIELD,
};

export interface Body {
  /** A name of SCHEMAS; absent for a body that is no JSON (the page's HTML). */
  readonly schema?: string;
  /** Media types the body is sent with; the first is the spec's (or, where it states none, the live service's). */
  readonly types: readonly string[];
}

export interface Answer {
  readonly description: string;
  /** Absent: no body. */
  readonly body?: Body;
}

export interface QueryParameter {
  readonly name: string;
  readonly description: string;
  readonly schema: Schema;
  readonly required?: boolean;
  /** `deepObject` for bracketed objects (`filter[id][0]=1`), `form` (default) otherwise. */
  readonly style?: 'form' | 'deepObject';
  readonly explode?: boolean;
}

export interface Operation {
  readonly summary: string;
  /** The spec section that states it. */
  readonly section: string;
  readonly description?: string;
  readonly query?: readonly QueryParameter[];
  readonly request?: Body;
  /** By HTTP status. */
  readonly answers: Readonly<Record<number, Answer>>;
}

const JSON_TYPE = 'application/json';
const HAL_JSON = 'application/hal+json';
const PROBLEM_JSON = 'application/problem+json';

const problem = (description: string): Answer => ({ description, body: { schema: 'Problem', types: [PROBLEM_JSON] } });
const chatError = (description: string): Answer => ({ description, body: { schema: 'ChatError', types: [JSON_TYPE] } });
const chatJson = (description: string, schema: string): Answer => ({ description, body: { schema, types: [JSON_TYPE] } });

/** A body over the size limit: the spec states none. */
const TOO_LARGE = 'The body is larger than the service takes. Not stated by the spec (the emulator\'s limit is 1 MB).';

const unauthorized = problem('The bearer is missing, unknown, expired or revoked (§3.1: "API calls return HTTP 401"); a `WWW-Authenticate: Bearer` challenge names why.');

/** §4.1 "Exchange code or refresh token", the account (§4.1, §5.1), by endpoint name (./endpoints.ts). */
const ACCOUNT_OPERATIONS: Readonly<Record<string, Operation>> = {
  token: {
    summary: 'Exchange an authorization code or a refresh token for a token pair',
    section: '4.1',
    description: 'The refresh token sent becomes invalid; the new one must be stored (§3.1).',
    request: { schema: 'TokenRequest', types: [JSON_TYPE, 'application/x-www-form-urlencoded'] },
    answers: {
      200: { description: '§2.3 Token response object.', body: { schema: 'TokenResponse', types: [JSON_TYPE] } },
      400: { description: 'Invalid data, details in the body (§4.1, §7); JSON also on error.', body: { schema: 'Problem', types: [JSON_TYPE, PROBLEM_JSON] } },
      401: { description: `A refresh token already exchanged or revoked, or client authentication failed. ${LIVE_SERVICE} The spec names 400.`, body: { schema: 'Problem', types: [JSON_TYPE, PROBLEM_JSON] } },
      413: { description: TOO_LARGE, body: { schema: 'Problem', types: [JSON_TYPE] } },
    },
  },
  account: {
    summary: 'The account the token was granted in',
    section: '4.1',
    query: [{ name: 'with', description: ACCOUNT_WITH_PARAMETER.description as string, schema: ACCOUNT_WITH_PARAMETER, explode: false }],
    answers: {
      200: { description: `The account. ${LIVE_SERVICE}`, body: { schema: 'Account', types: [HAL_JSON] } },
      401: unauthorized,
    },
  },
};

/** The query parameters of one list (§4.2), `filter` given by the caller (it is built from ./schemas.ts's filterSchema). */
export function listQuery(list: ListName, filter: Schema): QueryParameter[] {
  return [
    {
      name: 'filter', style: 'deepObject', explode: true, schema: filter,
      description: '§4.2 the filter container, in PHP-style brackets: `filter[<field>]=<v>` (Single), `filter[<field>][0]=<v0>&filter[<field>][1]=<v1>` (Multiple; `[]` repeated is read alike), `filter[<field>][from]=<n>&filter[<field>][to]=<n>` (Range), `filter[statuses][<i>][pipeline_id]=<id>&filter[statuses][<i>][status_id]=<id>` (deals), `filter[custom_fields_values][<field_id>][]=<v>` (custom fields). Brackets may be percent-encoded. An optional paid function (§1.5): the live service ignores the filter when it is off (`with=is_api_filter_enabled` on the account tells).',
    },
    ...(QUERY_LISTS.includes(list) ? [{ name: 'query', description: '§4.2: search string; will soon be deprecated (§9.4).', schema: { type: 'string' } }] : []),
    { name: 'page', description: `Page number, from 1. ${LIVE_SERVICE}`, schema: { type: 'integer', minimum: 1, default: 1 } },
    { name: 'limit', description: `Records per page, at most 250 (a larger limit is lowered). ${LIVE_SERVICE}`, schema: { type: 'integer', minimum: 1, default: 50 } },
  ];
}

/** §4.2 a list, by list. */
export function listOperation(list: ListName, filter: Schema): Operation {
  return {
    summary: `List ${list}, filtered`,
    section: '4.2',
    description: 'Access follows the rights of the user who granted the token (§5.1.2).',
    query: listQuery(list, filter),
    answers: {
      200: { description: `A page of ${list}, HAL JSON. ${LIVE_SERVICE}`, body: { schema: listSchemaName(list), types: [HAL_JSON] } },
      204: { description: `No record matches (or the page is past the end): no body. ${LIVE_SERVICE}` },
      400: problem(`A parameter is malformed (a filter value, page or limit). ${LIVE_SERVICE}`),
      401: unauthorized,
    },
  };
}

/** An operation by the endpoint catalogue's name (`token`, `account`, `list leads`). */
export function endpointOperation(name: string, filterOf: (list: ListName) => Schema): Operation | undefined {
  const list = LISTS.find((l) => name === `list ${l}`);
  return list === undefined ? ACCOUNT_OPERATIONS[name] : listOperation(list, filterOf(list));
}

const COMMON_CHAT: Readonly<Record<number, Answer>> = {
  400: chatError('Invalid data; `errors` names each invalid field (§4.3, §7).'),
  403: chatError('The request signature is incorrect (§5.2, §7).'),
  413: chatError(TOO_LARGE),
};

const scopeGone = (what: string): Answer => chatError(`${what}. Also a scope_id that is not connected (not stated by the spec: the emulator's answer).`);

/** §4.3, by chat route (./chat.ts's chatPaths). */
export const CHAT_OPERATIONS: Readonly<Record<ChatPathName, Operation>> = {
  connect: {
    summary: 'Connect the channel to an account', section: '4.3',
    request: { schema: 'ConnectRequest', types: [JSON_TYPE] },
    answers: { 200: chatJson('§2.4: the request fields plus scope_id.', 'Connection'), ...COMMON_CHAT, 404: chatError('The channel does not exist.') },
  },
  disconnect: {
    summary: 'Disconnect the channel from an account', section: '4.3',
    request: { schema: 'DisconnectRequest', types: [JSON_TYPE] },
    answers: { 200: { description: 'Disconnected; no body.' }, ...COMMON_CHAT, 404: chatError('The channel does not exist.') },
  },
  chats: {
    summary: 'Create a chat (or get the one of this conversation_id)', section: '4.3',
    request: { schema: 'CreateChatRequest', types: [JSON_TYPE] },
    answers: { 200: chatJson('The chat id in the chat interface and its user (§2.5).', 'CreatedChat'), ...COMMON_CHAT, 404: scopeGone('The scope is unknown') },
  },
  message: {
    summary: 'Send, edit or import a message, or send a comment', section: '4.3',
    description: 'A comment is a new message whose `message.post` is present. Accepted for processing: the message appears after processing.',
    request: { schema: 'MessageEvent', types: [JSON_TYPE] },
    answers: { 200: chatJson('Accepted: the new_message object.', 'NewMessageAnswer'), ...COMMON_CHAT, 404: scopeGone('The scope is unknown') },
  },
  deliveryStatus: {
    summary: 'Update a message\'s delivery status', section: '4.3',
    request: { schema: 'DeliveryStatusRequest', types: [JSON_TYPE] },
    answers: { 200: { description: 'Updated; no body.' }, ...COMMON_CHAT, 404: scopeGone('The message does not exist') },
  },
  history: {
    summary: 'Read a chat\'s history, newest first', section: '4.3',
    description: 'Signed like every chat request; Content-MD5 is the MD5 of the empty string and Content-Type `application/json` is sent and signed although there is no body.',
    query: [
      { name: 'offset', description: 'Records skipped from the start.', schema: { type: 'integer', minimum: 0, default: 0 } },
      { name: 'limit', description: 'Records per request; maximum 50 (§8).', schema: { type: 'integer', minimum: 1, maximum: 50 } },
    ],
    answers: { 200: chatJson('The messages.', 'History'), 204: { description: 'The chat does not exist or has no messages; no body.' }, ...COMMON_CHAT, 404: scopeGone('The scope is unknown') },
  },
  typing: {
    summary: 'Report typing', section: '4.3',
    request: { schema: 'TypingRequest', types: [JSON_TYPE] },
    answers: { 204: { description: 'Event accepted; no body.' }, ...COMMON_CHAT, 404: scopeGone('The scope is unknown') },
  },
  react: {
    summary: 'Send or remove a reaction', section: '4.3',
    request: { schema: 'ReactRequest', types: [JSON_TYPE] },
    answers: { 200: { description: 'Accepted for processing; no body.' }, ...COMMON_CHAT, 404: scopeGone('The message does not exist') },
  },
};

/** §4.1 "Access-granting page": `GET {auth_url}/oauth`, opened by the user in a browser. */
export const CONSENT_PAGE: { readonly path: string; readonly operation: Operation } = {
  path: '/oauth',
  operation: {
    summary: 'The access-granting page (a browser page)', section: '4.1',
    description: 'Shows the integration\'s logo, name and permissions; on Allow installs the integration in the chosen account and redirects to the Redirect URI with `code`, `referer`, `state`, `from_widget`, `platform` (see the `authorizationRedirect` webhook); on Deny with `error=access_denied` and `state`.',
    query: [
      { name: 'client_id', description: 'Integration ID.', schema: { type: 'string' }, required: true },
      { name: 'state', description: 'Returned unchanged on the redirect; not returned when not passed.', schema: { type: 'string' } },
      { name: 'mode', description: '`popup`: the grant window closes and the main window goes to the Redirect URI; `post_message`: the redirect happens inside the opened window.', schema: { type: 'string', enum: ['popup', 'post_message'] } },
    ],
    answers: {
      200: { description: 'The page (HTML): the login form, or the accounts to choose from.', body: { types: ['text/html'] } },
      400: { description: 'No client_id (an error page). Not stated by the spec.', body: { types: ['text/html'] } },
      404: { description: 'No integration has this client_id (an error page). Not stated by the spec.', body: { types: ['text/html'] } },
    },
  },
};

/** §4.1 step 3–4, §6: the redirect to the Redirect URI after Allow or Deny. */
export const REDIRECT_PARAMETERS: readonly QueryParameter[] = [
  { name: 'code', description: 'The authorization code (on Allow).', schema: { type: 'string' } },
  { name: 'referer', description: 'Address of the user\'s account (on Allow).', schema: { type: 'string' } },
  { name: 'state', description: 'Only if it was passed to the page.', schema: { type: 'string' } },
  { name: 'from_widget', description: 'Only when the hook is sent after a widget installation.', schema: { type: 'string' } },
  { name: 'platform', description: '`1` for an account on the regional domain, `2` on the global domain (on Allow).', schema: { type: 'string', enum: ['1', '2'] } },
  { name: 'error', description: '`access_denied` on Deny.', schema: { type: 'string', const: 'access_denied' } },
];


const notFound = problem('No record of the catalog has this id (or the path is not served: docs/emulator.md).');
const catalogRead = (summary: string, schema: string): Operation => ({
  summary, section: '4.2', description: CATALOG,
  answers: { 200: { description: `${summary}, HAL JSON.`, body: { schema, types: [HAL_JSON] } }, 401: unauthorized, 404: notFound },
});

/**
 * The read-only catalog routes (not in the spec, docs/emulator.md), by path under `{base_url}`, each a bearer GET.
 * `{list}` stands for each of the four lists (./filters.ts's LISTS).
 */
export const CATALOG_OPERATIONS: Readonly<Record<string, Operation>> = {
  '/api/v4/leads/pipelines': catalogRead('The leads\' pipelines with their statuses', 'Pipelines'),
  '/api/v4/leads/pipelines/{pipeline_id}': catalogRead('One pipeline with its statuses', 'Pipeline'),
  '/api/v4/leads/pipelines/{pipeline_id}/statuses': catalogRead('The statuses of one pipeline', 'PipelineStatuses'),
  '/api/v4/leads/pipelines/{pipeline_id}/statuses/{status_id}': catalogRead('One status of a pipeline', 'PipelineStatus'),
  '/api/v4/customers/statuses': catalogRead('The customers\' statuses', 'CustomerStatuses'),
  '/api/v4/customers/statuses/{status_id}': catalogRead('One customers\' status', 'CustomerStatus'),
  ...Object.fromEntries(LISTS.flatMap((list) => [
    [`/api/v4/${list}/custom_fields`, catalogRead(`The custom fields of ${list}`, 'CustomFields')],
    [`/api/v4/${list}/custom_fields/{field_id}`, catalogRead(`One custom field of ${list}`, 'CustomField')],
  ])),
};
