/**
 * The bodies and parameters of the service as JSON Schemas (draft 2020-12, the dialect of OpenAPI 3.1): one shape per
 * request or answer the spec states (§2, §4), and, where the spec says "not shown", the live service's shape as
 * docs/field-notes.md records it (each such schema says so in its description). `src/openapi/build.ts` assembles the
 * OpenAPI description from these and the endpoint catalogue; nothing here is written twice there.
 *
 * Answers are open (extra members are always allowed, docs/design.md §2); a member is required only where the spec (or
 * for a "not shown" body, the live service) always sends it. Requests name the members the spec marks required.
 */
import { LIST_MULTIPLE, LIST_RANGE, SINGLE_OR_RANGE_FIELDS, SINGLE_VALUED_INT_FIELDS, type ListName } from './filters.js';
import { ACCOUNT_WITH } from './oauth.js';

export type Schema = { readonly [keyword: string]: unknown };

/** Marks a shape the spec does not show, taken from the live service (docs/field-notes.md). */
export const LIVE_SERVICE = 'Not shown in the spec: the live service\'s shape (docs/field-notes.md).';

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const bool: Schema = { type: 'boolean' };
const obj = (properties: Record<string, Schema>, required: readonly string[] = [], extra: Schema = {}): Schema => ({
  type: 'object', ...(required.length > 0 ? { required: [...required] } : {}), properties, ...extra,
});
const described = (schema: Schema, description: string): Schema => ({ ...schema, description });

// ---- §2.3, §4.1: the token endpoint

/** §4.1 "Exchange code or refresh token": the members both grants send, and the grant's own. */
function grant(title: string, grantType: string, own: Record<string, Schema>, secret: string, required: readonly string[]): Schema {
  return obj({
    client_id: described(str, 'Integration ID.'),
    client_secret: described(str, secret),
    grant_type: { const: grantType },
    ...own,
    redirect_uri: described(str, 'Must match the Redirect URI in the integration settings exactly (§5.1.4).'),
  }, ['client_id', 'grant_type', ...required, 'redirect_uri'], { title });
}

const codeGrant = grant('Code grant', 'authorization_code', { code: described(str, 'The authorization code (valid 20 minutes, §2.2).') },
  'Integration secret key; required for the code grant.', ['client_secret', 'code']);
/** The refresh grant: the secret is listed as optional. */
const refreshGrant = grant('Refresh grant', 'refresh_token', { refresh_token: described(str, 'The refresh token (valid 3 months, exchangeable once, §2.2).') },
  'Integration secret key; listed as optional for the refresh grant (§5.1.3).', ['refresh_token']);

export const TOKEN_REQUEST: Schema = {
  type: 'object',
  description: '§4.1: the code grant or the refresh grant, told apart by grant_type.',
  oneOf: [codeGrant, refreshGrant],
  discriminator: { propertyName: 'grant_type' },
};

/** §2.3 Token response object. */
export const TOKEN_RESPONSE: Schema = obj({
  token_type: described(str, 'A bearer type (`Bearer`; compared case-insensitively).'),
  expires_in: described(int, 'Seconds until the access token expires.'),
  server_time: described(int, 'Server time of the response, Unix seconds.'),
  access_token: described(str, 'Access token, a JWT.'),
  refresh_token: described(str, 'Refresh token.'),
}, ['token_type', 'expires_in', 'server_time', 'access_token', 'refresh_token'], { description: '§2.3 Token response object.' });

/**
 * The live service's problem body (docs/field-notes.md): `title`, `type`, `status`, `detail`; the token endpoint adds a
 * `hint` naming the bad parameter, the lists' validation errors a `validation-errors` array.
 */
export const PROBLEM: Schema = obj({
  title: str,
  type: str,
  status: int,
  detail: str,
  hint: described(str, 'The token endpoint\'s pointer to the bad parameter ("Check the `client_id` parameter").'),
  error: described(str, 'An RFC 6749 §5.2 error code, on the token endpoint.'),
  'validation-errors': {
    type: 'array',
    items: obj({ request_id: str, errors: { type: 'array', items: obj({ code: str, path: str, detail: str }) } }),
  },
}, ['title', 'type', 'status', 'detail'], { description: `An error body. ${LIVE_SERVICE} §7: "Structure of the error body: not shown".` });

// ---- §4.1 account API, §4.2 lists

/** `GET /api/v4/account`: not shown in the spec; the live service's base fields and the `with=` extras. */
export const ACCOUNT: Schema = obj({
  id: int, name: str, subdomain: str, created_at: int, created_by: int, updated_at: int, updated_by: int, current_user_id: int,
  country: str, currency: str, customers_mode: str, is_unsorted_on: bool, is_technical_account: bool,
  amojo_id: described(str, '`with=amojo_id`: the account id in the chat interface (CHAT_ACCOUNT_ID).'),
  uuid: described(str, '`with=uuid`.'),
  version: described(int, '`with=version`.'),
  drive_url: described(str, '`with=drive_url`.'),
  is_api_filter_enabled: described(bool, '`with=is_api_filter_enabled`: whether the paid filter function (§1.5) is on.'),
  _links: obj({ self: obj({ href: str }, ['href']) }),
  _embedded: { type: 'object' },
}, ['id', 'name', 'subdomain'], { description: `The account. ${LIVE_SERVICE} §4.1: "Response body of GET /api/v4/account: not shown".` });

/** The `with` query parameter of the account: the values clients send (comma-separated). */
export const ACCOUNT_WITH_PARAMETER: Schema = {
  type: 'array', items: { type: 'string', enum: [...ACCOUNT_WITH] },
  description: `Extras to add to the account, comma-separated. ${LIVE_SERVICE} Unknown values are ignored.`,
};

const link = obj({ href: str }, ['href']);

/** Range fields that are money or counts rather than timestamps (the others hold a timestamp, or null when unset). */
const AMOUNT_FIELDS = ['price', 'next_price'];

/** A custom field value of a record (the live service's shape; its values are what `filter[custom_fields_values]` matches). */
const CF_VALUE: Schema = obj({
  field_id: int, field_name: str, field_code: { type: ['string', 'null'] }, field_type: str,
  values: { type: 'array', items: obj({ value: { type: ['string', 'number', 'boolean'] }, enum_id: int, enum_code: { type: ['string', 'null'] } }) },
}, ['field_id', 'values']);

/**
 * A record of a list. §2.12: "Fields of lead, contact, company and customer records returned by list endpoints: not
 * shown. Only their filterable attributes appear in section 4.2": those attributes, typed as §4.2 filters them, and
 * the live service's HAL members.
 */
export function listRecord(list: ListName): Schema {
  const properties: Record<string, Schema> = {};
  for (const field of LIST_MULTIPLE[list]) properties[field] = SINGLE_VALUED_INT_FIELDS.includes(field) ? int : str;
  for (const field of LIST_RANGE[list]) properties[field] = AMOUNT_FIELDS.includes(field) ? { type: 'number' } : { type: ['integer', 'null'] };
  return obj({
    ...properties,
    custom_fields_values: { type: ['array', 'null'], items: CF_VALUE },
    _links: obj({ self: link }),
    _embedded: { type: 'object' },
  }, ['id'], { description: `A record of ${list}. ${LIVE_SERVICE} §2.12 shows only the filterable attributes (§4.2).` });
}

/** A page of a list, HAL JSON: `_page`, `_links` (`self`, `next` while more follow), `_embedded.<list>[]`. */
export function listPage(list: ListName): Schema {
  return obj({
    _page: int,
    _links: obj({ self: link, next: link, first: link, prev: link }),
    _embedded: obj({ [list]: { type: 'array', items: listRecord(list), minItems: 1 } }, [list]),
  }, ['_page', '_embedded'], { description: `A page of ${list}. ${LIVE_SERVICE} §4.2: "Response body of list endpoints: not shown".` });
}

// ---- §4.2 the filter parameter

const range = (value: Schema): Schema => obj({ from: value, to: value }, [], { additionalProperties: false, minProperties: 1 });
/** An indexed or repeated array as a query string carries it: `[0]=a&[1]=b` or `[]=a&[]=b`. */
const values = (value: Schema): Schema => ({ type: 'array', items: value, minItems: 1 });

/**
 * §4.2 the `filter` container of one list, as a deepObject: each parameter of the common table and of the list's own
 * rows, shaped as "Filter kinds and their shape" states (Single, Multiple, Range, Statuses, Custom fields).
 */
export function filterSchema(list: ListName): Schema {
  const properties: Record<string, Schema> = {};
  for (const field of LIST_MULTIPLE[list]) {
    const scalar = SINGLE_VALUED_INT_FIELDS.includes(field) ? int : str;
    properties[field] = described({ oneOf: [scalar, values(scalar)] }, `By ${field}: one value (Single) or several, any of which matches (Multiple).`);
  }
  for (const field of LIST_RANGE[list]) {
    const bounds = range({ type: 'number' });
    properties[field] = SINGLE_OR_RANGE_FIELDS.includes(field)
      ? described({ oneOf: [str, values(str), bounds] }, `By ${field}: a value, or \`from\` and/or \`to\` (Range).`)
      : described(bounds, `By ${field}: \`from\` and/or \`to\` (Range)${AMOUNT_FIELDS.includes(field) ? '' : ', timestamps'}.`);
  }
  if (list === 'leads') {
    properties.statuses = described(
      { type: 'array', minItems: 1, items: obj({ pipeline_id: int, status_id: int }, ['pipeline_id', 'status_id']) },
      'By status: pairs of pipeline_id and status_id, both required in each element (Statuses).',
    );
  }
  properties.custom_fields_values = {
    type: 'object',
    description: 'By custom field values, by field id: `[<field_id>][]=<value>` repeated (numeric, text, url, textarea, streetaddress; enum value ids of select, multiselect, radiobutton; checkbox `1` or `0`; timestamps) or `[<field_id>][from]`/`[to]` (numeric, date, date_time).',
    propertyNames: { pattern: '^[0-9]+$' },
    additionalProperties: { oneOf: [values({ type: ['string', 'number'] }), range({ type: 'number' })] },
  };
  return obj(properties, [], { additionalProperties: false });
}

// ---- §2.4–§2.11, §4.3 the chat interface

/** The §4.3 message types (§2.7). */
export const MESSAGE_TYPE_ENUM = ['text', 'contact', 'file', 'video', 'picture', 'voice', 'audio', 'sticker', 'location'] as const;
const messageType: Schema = { type: 'string', enum: [...MESSAGE_TYPE_ENUM] };
const location = obj({ lon: { type: 'number' }, lat: { type: 'number' } }, ['lon', 'lat']);
const contact = obj({ name: str, phone: str }, ['name', 'phone']);

/** §2.5 Participant object (`sender`, `receiver`, `user` in chat creation), as sent. */
export const PARTICIPANT: Schema = obj({
  id: described(str, 'Participant id on the integration side.'),
  ref_id: described(str, 'Participant id on the chat-interface side: the account user (a manager) or the bot.'),
  name: str,
  avatar: described(str, 'URL of a downloadable image.'),
  profile: obj({ phone: str, email: str }),
  profile_link: described(str, 'Profile in the external chat system.'),
}, ['id', 'name'], { description: '§2.5 Participant object.' });

/** §2.5 "In responses the participant carries": chat-interface `id`, integration-side `client_id` (absent for account users). */
export const PARTICIPANT_ANSWER: Schema = obj({
  id: str, client_id: str, name: str, avatar: described(str, 'Empty if not given.'), phone: str, email: str,
}, ['id'], { description: '§2.5 Participant object, in responses.' });

/** §2.6 Source object. */
const SOURCE: Schema = obj({ external_id: { type: ['string', 'integer', 'boolean'], maxLength: 40 } }, [], { description: '§2.6 Source object.' });

/** §2.9 delivery_status object. */
const DELIVERY_STATUS_OBJECT: Schema = obj({ status_code: { type: 'integer', enum: [1, 2, -1] }, error_code: { type: 'integer', enum: [901, 902, 903, 904, 905] }, error: str });

/** §2.7 Message object, with the members each type requires; `edit` drops the file members' requirement (unchanged file). */
function messageObject(edit: boolean): Schema {
  const fileMembers = edit ? [] : ['file_name', 'file_size'];
  const needs = (types: readonly string[], required: readonly string[]): Schema => ({ if: { properties: { type: { enum: [...types] } }, required: ['type'] }, then: { required: [...required] } });
  return obj({
    type: messageType, text: str, media: str, file_name: str, file_size: int, sticker_id: str,
    location, contact, callback_data: str, delivery_status: DELIVERY_STATUS_OBJECT, media_duration: int,
    shared_post: obj({ url: str, preview_link: str, preview_permalink: str, type: { const: 'post' }, site_name: str }, [], { description: '§2.8 shared_post object.' }),
    post: obj({ id: str, url: str, preview_url: str, preview_permalink: str, username: str, caption: str }, ['id', 'url'], { description: '§2.10 message.post object (comments).' }),
  }, ['type'], {
    description: '§2.7 Message object.',
    allOf: [
      needs(['text'], ['text']),
      ...(fileMembers.length > 0 ? [needs(['file', 'video', 'picture'], fileMembers)] : []),
      needs(['location'], ['location']),
      needs(['contact'], ['contact']),
    ],
  });
}

/** §2.11 embedded_message object: an id (either side's) or the message itself. */
const EMBEDDED_MESSAGE: Schema = obj({
  id: str, msgid: str, type: messageType, text: str, file_name: str, file_size: int, media_duration: int, location, contact,
  timestamp: int, msec_timestamp: int, sender: obj({ id: str, ref_id: str, name: str }),
}, [], {
  description: '§2.11 embedded_message object: with `id` or `msgid` the rest is resolved; without, type, timestamp, msec_timestamp and sender are required.',
  anyOf: [{ required: ['id'] }, { required: ['msgid'] }, { required: ['type', 'timestamp', 'msec_timestamp', 'sender'] }],
});

/** §4.3 "Connect channel". */
export const CONNECT_REQUEST: Schema = obj({
  account_id: described(str, 'Account id in the chat interface.'),
  hook_api_version: { type: 'string', enum: ['v1', 'v2'], default: 'v1' },
  title: described(str, 'Optional; default: the channel name.'),
  is_time_window_disabled: { type: 'boolean', default: false },
}, ['account_id']);

/** §2.4 Channel connection (scope): the request fields plus `scope_id`. */
export const CONNECT_ANSWER: Schema = obj({
  account_id: str, scope_id: str, title: str, hook_api_version: { type: 'string', enum: ['v1', 'v2'] }, is_time_window_disabled: bool,
}, ['account_id', 'scope_id'], { description: '§2.4 Channel connection (scope).' });

export const DISCONNECT_REQUEST: Schema = obj({ account_id: str }, ['account_id']);

/** §4.3 "Create chat". */
export const CREATE_CHAT_REQUEST: Schema = obj({ conversation_id: str, source: SOURCE, user: PARTICIPANT }, ['conversation_id', 'user']);
export const CREATE_CHAT_ANSWER: Schema = obj({ id: described(str, 'Chat id in the chat interface.'), user: PARTICIPANT_ANSWER }, ['id', 'user']);

/** §4.3 "Send, edit or import a message" and "Send a comment": the payload. */
function messagePayload(edit: boolean): Schema {
  return obj({
    timestamp: described(int, 'Message time, Unix seconds.'),
    msec_timestamp: described(int, 'Message time, milliseconds.'),
    conversation_id: described(str, 'Chat id on the integration side.'),
    conversation_ref_id: described(str, 'Chat id on the chat-interface side.'),
    silent: bool,
    source: SOURCE,
    sender: PARTICIPANT,
    receiver: PARTICIPANT,
    id: described(str, 'Message id on the chat-interface side; only for edit.'),
    msgid: described(str, 'Message id on the integration side.'),
    message: messageObject(edit),
    reply_to: obj({ message: EMBEDDED_MESSAGE }, ['message']),
    forwards: obj({ messages: { type: 'array', items: EMBEDDED_MESSAGE, minItems: 1, maxItems: 1 }, conversation_ref_id: str, conversation_id: str }, ['messages']),
  }, edit ? ['message'] : ['timestamp', 'msec_timestamp', 'conversation_id', 'msgid', 'sender', 'message']);
}

export const MESSAGE_EVENT: Schema = {
  type: 'object',
  description: '§4.3: a new message (a comment when message.post is present) or an edit. The table marks only `message` required; a new message also needs the ids and times its rule 1 creates it under.',
  oneOf: [
    obj({ event_type: { const: 'new_message' }, payload: messagePayload(false) }, ['event_type', 'payload'], { title: 'New message or comment' }),
    obj({ event_type: { const: 'edit_message' }, payload: messagePayload(true) }, ['event_type', 'payload'], { title: 'Edit' }),
  ],
  discriminator: { propertyName: 'event_type' },
};

/** §4.3 "Response 200" of a message: the `new_message` object. */
export const NEW_MESSAGE_ANSWER: Schema = obj({
  new_message: obj({
    conversation_id: described(str, 'Dialog id.'), sender_id: str, receiver_id: { type: ['string', 'null'] },
    msgid: described(str, 'Message id in the chat interface.'), ref_id: described(str, 'Message id on the integration side.'),
  }, ['conversation_id', 'sender_id', 'receiver_id', 'msgid', 'ref_id']),
}, ['new_message']);

/** §4.3 "Update delivery status": error_code and error only with status_code -1. */
export const DELIVERY_STATUS_REQUEST: Schema = obj({
  status_code: { type: 'integer', enum: [1, 2, -1], description: '§3.3: 1 delivered, 2 read, -1 error.' },
  error_code: { type: 'integer', enum: [901, 902, 903, 904, 905] },
  error: str,
}, ['status_code'], { if: { properties: { status_code: { const: -1 } }, required: ['status_code'] }, then: { required: ['error_code', 'error'] } });

/** §4.3 "Get chat history": `messages`, each element as its table lists (empty values may be omitted). */
export const HISTORY_ANSWER: Schema = obj({
  messages: {
    type: 'array',
    items: obj({
      timestamp: int, msec_timestamp: int, sender: PARTICIPANT_ANSWER, receiver: PARTICIPANT_ANSWER,
      message: obj({
        id: str, client_id: str, type: messageType, text: str, media: str, thumbnail: str, file_name: str, file_size: int,
        media_group_id: str, location, contact,
      }),
    }),
  },
}, ['messages']);

/** §4.3 "Typing indicator". */
export const TYPING_REQUEST: Schema = obj({
  conversation_id: str, duration_ms: { type: 'integer', default: 5000, minimum: 0 }, sender: obj({ id: str }, ['id']),
}, ['conversation_id', 'sender']);

/** §4.3 "Reaction": either chat id and either message id. */
export const REACT_REQUEST: Schema = obj({
  conversation_id: str, conversation_ref_id: str, id: str, msgid: str,
  user: obj({ id: str, ref_id: described(str, 'Required when reacting on behalf of a manager.') }, ['id']),
  type: { type: 'string', enum: ['react', 'unreact'] },
  emoji: str,
}, ['user', 'type'], { allOf: [{ anyOf: [{ required: ['conversation_id'] }, { required: ['conversation_ref_id'] }] }, { anyOf: [{ required: ['id'] }, { required: ['msgid'] }] }] });

/** The chat interface's error envelope (docs/field-notes.md), `errors` naming each invalid field on a 400. */
export const CHAT_ERROR: Schema = obj({
  status: int, error_code: int, error_type: str, error_description: str,
  errors: { type: 'array', items: obj({ field: str, message: str }) },
}, ['error_code', 'error_type', 'error_description'], { description: `A chat error. ${LIVE_SERVICE}` });

// ---- What clients read before they filter: pipelines, statuses, custom fields (not in the spec: the live service's)

/** Marks a route the spec does not name, served because clients read it before filtering (docs/emulator.md). */
export const CATALOG = 'Not in the spec: a read-only route of the live service that clients read before they filter by `filter[statuses]`, `filter[pipeline_id]`, `filter[status]` or `filter[custom_fields_values]` (docs/emulator.md).';

const selfLinks = obj({ self: link }, ['self']);
/** A HAL collection of `items` under `_embedded.<member>`. */
const collection = (member: string, items: Schema, extra: Record<string, Schema> = {}): Schema => obj({
  _total_items: int, ...extra, _links: selfLinks, _embedded: obj({ [member]: { type: 'array', items } }, [member]),
}, ['_embedded'], { description: CATALOG });

/** A status of a leads' pipeline: the ids `filter[statuses][<i>][status_id]` takes. */
export const PIPELINE_STATUS: Schema = obj({
  id: int, name: str, sort: int, is_editable: bool, pipeline_id: int, color: str, type: int, account_id: int, _links: selfLinks,
}, ['id', 'name', 'pipeline_id'], { description: CATALOG });
/** A leads' pipeline with its statuses: the ids `filter[pipeline_id]` and `filter[statuses][<i>][pipeline_id]` take. */
export const PIPELINE: Schema = obj({
  id: int, name: str, sort: int, is_main: bool, is_unsorted_on: bool, is_archive: bool, account_id: int, _links: selfLinks,
  _embedded: obj({ statuses: { type: 'array', items: PIPELINE_STATUS } }, ['statuses']),
}, ['id', 'name', '_embedded'], { description: CATALOG });
export const PIPELINES: Schema = collection('pipelines', PIPELINE);
export const PIPELINE_STATUSES: Schema = collection('statuses', PIPELINE_STATUS);
/** A customers' status: the ids the customers' `filter[status]` takes. */
export const CUSTOMER_STATUS: Schema = obj({
  id: int, name: str, sort: int, is_default: bool, color: str, type: int, account_id: int, _links: selfLinks,
}, ['id', 'name'], { description: CATALOG });
export const CUSTOMER_STATUSES: Schema = collection('statuses', CUSTOMER_STATUS);
/** A list's custom field: the field ids (and enum ids) `filter[custom_fields_values][<field_id>]` takes. */
export const CUSTOM_FIELD: Schema = obj({
  id: int, name: str, type: str, code: { type: ['string', 'null'] }, sort: int, entity_type: str, account_id: int,
  enums: { type: ['array', 'null'], items: obj({ id: int, value: str, sort: int }, ['id', 'value']) },
  _links: selfLinks,
}, ['id', 'name', 'type'], { description: CATALOG });
export const CUSTOM_FIELDS: Schema = collection('custom_fields', CUSTOM_FIELD, { _page: int, _page_count: int });
