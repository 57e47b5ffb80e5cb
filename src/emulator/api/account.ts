/**
 * `GET /api/v4/account` (§4.1 account API calls). The spec does not show the body; it follows the live service's
 * public account reference (docs/field-notes.md, docs/emulator.md "The account"), so that public clients that read
 * its fields without checks keep working: the official PHP client's `AccountModel::fromArray` reads every base field
 * below unconditionally. `with=` adds, as the live service does: `amojo_id`, `uuid`, `version`, `drive_url`,
 * `is_api_filter_enabled` and `entity_names` at the top level; `amojo_rights`, `users_groups`, `task_types`,
 * `datetime_settings` and `entity_names` again under `_embedded`. Unknown `with=` values are ignored, as the live
 * service ignores them.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { RouteOptions } from '../context.js';
import type { Account } from '../world.js';
import { methodNotAllowed } from '../errors.js';
import { bearerAuth } from './bearer.js';
import { linkBase, withSet } from './links.js';
import { ACCOUNT_WITH } from '../../protocol/oauth.js';

export const ACCOUNT_PATH = '/api/v4/account';


/** The account's version as `with=version` reports it (an integer, as the PHP client's `setVersion(int)` takes it). */
const ACCOUNT_VERSION = 22;

const TASK_TYPES = [
  { id: 1, name: 'Follow-up', color: null, icon_id: null, code: 'FOLLOW_UP' },
  { id: 2, name: 'Meeting', color: null, icon_id: null, code: 'MEETING' },
];

const form = (singular: string, plural: string) => ({
  gender: 'f',
  singular_form: { default: singular },
  plural_form: { default: plural },
});

export async function accountRoutes(app: FastifyInstance, { ctx }: RouteOptions): Promise<void> {
  app.get(ACCOUNT_PATH, { preHandler: bearerAuth(ctx) }, async (request, reply) => {
    const { admin } = ctx.world;
    const account = tokenAccount(ctx, request.principal?.accountId);
    const extras = withSet(request.query);
    // Only for the faults: `with` read as one comma-separated string, and every value looked up in a table of loaders.
    if (ctx.faults.isOn('account-with-array-crash') && Array.isArray((request.query as Record<string, unknown> | undefined)?.with)) throw new TypeError('with.split is not a function');
    if (ctx.faults.isOn('account-with-unknown-crash')) {
      const unknown = [...extras].find((w) => !(ACCOUNT_WITH as readonly string[]).includes(w));
      if (unknown !== undefined) throw new TypeError(`loaders[${JSON.stringify(unknown)}] is not a function`);
    }
    const base = ctx.faults.isOn('api-links-plain-http') ? `http://${account.subdomain}.example.com` : linkBase(ctx, request);
    const regional = account.platform === 1;
    const body: Record<string, unknown> = {
      id: account.id,
      name: account.name,
      subdomain: account.subdomain,
      created_at: account.createdAt,
      created_by: admin.id,
      updated_at: account.createdAt,
      updated_by: admin.id,
      current_user_id: request.principal?.userId ?? admin.id,
      country: account.country,
      currency: account.currency,
      currency_symbol: regional ? '₽' : '$',
      customers_mode: account.customersMode,
      is_unsorted_on: account.isUnsortedOn,
      mobile_feature_version: 0,
      is_loss_reason_enabled: true,
      is_helpbot_enabled: false,
      is_technical_account: account.isTechnicalAccount,
      contact_name_display_order: 1,
    };
    if (extras.has('amojo_id')) body.amojo_id = account.amojoId;
    if (extras.has('uuid')) body.uuid = accountUuid(account.id);
    if (extras.has('version')) body.version = ACCOUNT_VERSION;
    if (extras.has('drive_url')) body.drive_url = `${base}/_drive/${account.subdomain}`;
    if (extras.has('is_api_filter_enabled')) body.is_api_filter_enabled = account.isApiFilterEnabled;
    const embedded: Record<string, unknown> = {};
    if (extras.has('entity_names')) {
      // Public clients disagree on where it sits: @shevernitskiy/amo's account type reads it at the top level,
      // Krukov/amocrm_api's Account under `_embedded`. Both places hold it, so that either client finds it.
      body.entity_names = {
        leads: { en: form('lead', 'leads') },
        contacts: { en: form('contact', 'contacts') },
        companies: { en: form('company', 'companies') },
        customers: { en: form('customer', 'customers') },
      };
      embedded.entity_names = body.entity_names;
    }
    if (extras.has('amojo_rights')) embedded.amojo_rights = { can_direct: true, can_create_groups: true };
    if (extras.has('users_groups')) embedded.users_groups = [{ id: 0, name: 'Sales department', uuid: null }];
    if (extras.has('task_types')) embedded.task_types = TASK_TYPES;
    if (extras.has('datetime_settings')) {
      embedded.datetime_settings = {
        date_pattern: 'm/d/Y H:i',
        short_date_pattern: 'm/d/Y',
        short_time_pattern: 'H:i',
        date_format: 'm/d/Y',
        time_format: 'H:i:s',
        timezone: 'UTC',
        timezone_offset: '+00:00',
      };
    }
    body._links = { self: { href: `${base}${ACCOUNT_PATH}` } };
    if (Object.keys(embedded).length > 0) body._embedded = embedded;
    // Only for the `account-location-plain-http` fault: the answer names its canonical address, on the public host over plain http.
    if (ctx.faults.isOn('account-location-plain-http')) reply.header('location', `http://${account.subdomain}.example.com${ACCOUNT_PATH}`);
    const type = ctx.faults.isOn('account-answer-text-plain') ? 'text/plain; charset=utf-8' : 'application/hal+json; charset=utf-8';
    return reply.code(200).header('content-type', type).send(JSON.stringify(body));
  });
  methodNotAllowed(app, ACCOUNT_PATH, ['GET']);
}

/** The account the token was granted in (§4.1: Allow installs the integration in the account the user chose). */
function tokenAccount(ctx: RouteOptions['ctx'], accountId: number | undefined): Account {
  const { account, otherAccounts } = ctx.world;
  return [account, ...otherAccounts].find((a) => a.id === accountId) ?? account;
}

/**
 * The account's uuid (`with=uuid`): derived from its id, so the world's seeded ids stay as they were and the same
 * account always has the same uuid. A version-5-shaped UUID (RFC 9562) of the id's SHA-1.
 */
export function accountUuid(accountId: number): string {
  const b = createHash('sha1').update(`account:${accountId}`).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
