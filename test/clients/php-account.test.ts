/**
 * The official PHP client (amocrm/amocrm-api-php) does not run here; its account parse is covered by a recorded
 * answer, and its own account request and refresh-token subdomain lookup, recorded (php-replay.ts), are replayed and
 * their answers checked the same way. `AccountModel::fromArray` reads the fields below without a check and passes them to typed setters
 * (`setCreatedAt(int)`, `setCustomersMode(string)`, ...): a missing one is a PHP TypeError on every
 * `account()->getCurrent()`. With `with=` it reads `_embedded.amojo_rights` (`can_direct`, `can_create_groups`),
 * `_embedded.datetime_settings` (seven strings), `_embedded.users_groups[]` and `_embedded.task_types[]` (through
 * their models' `fromArray`), and `amojo_id`, `version`, `uuid`, `is_api_filter_enabled` when set. After a 401 the
 * client calls `GET /oauth2/account/current/subdomain` (`AccountDomainModel::fromArray`: id, subdomain, domain,
 * top_level_domain) and then the `domain` it names.
 *
 * `fixtures/account-answer.json` is the emulator's answer to `GET /api/v4/account?with=<every value>`, recorded; the
 * test checks that the record satisfies the client, and that the emulator still answers in the recorded shape.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_WITH } from '../../src/protocol/oauth.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { Control } from './https-emulator.js';
import { recordedCall, startReplayer, type Replayer } from './php-replay.js';

type JsonType = 'number' | 'string' | 'boolean' | 'string|null' | 'number|null' | 'object' | 'array';

/** What `AccountModel::fromArray` reads unconditionally, with the JSON type its setter takes (after its casts). */
const FROM_ARRAY: Record<string, JsonType> = {
  id: 'number', name: 'string', subdomain: 'string', created_by: 'number', created_at: 'number', updated_by: 'number', updated_at: 'number',
  current_user_id: 'number', country: 'string', currency: 'string', is_unsorted_on: 'boolean', mobile_feature_version: 'number',
  customers_mode: 'string', is_loss_reason_enabled: 'boolean', is_helpbot_enabled: 'boolean', is_technical_account: 'boolean',
  contact_name_display_order: 'number',
};
/** Read when present (`isset`), each with the type its setter takes. */
const WHEN_SET: Record<string, JsonType> = { amojo_id: 'string', uuid: 'string', version: 'number', is_api_filter_enabled: 'boolean' };
const AMOJO_RIGHTS: Record<string, JsonType> = { can_direct: 'boolean', can_create_groups: 'boolean' };
const DATETIME_SETTINGS: Record<string, JsonType> = Object.fromEntries(
  ['date_pattern', 'short_date_pattern', 'short_time_pattern', 'date_format', 'time_format', 'timezone', 'timezone_offset'].map((k) => [k, 'string' as const]),
);
const USERS_GROUP: Record<string, JsonType> = { id: 'number', name: 'string' };
const TASK_TYPE: Record<string, JsonType> = { id: 'number', name: 'string', color: 'string|null', icon_id: 'number|null', code: 'string|null' };
const ACCOUNT_DOMAIN: Record<string, JsonType> = { id: 'number', subdomain: 'string', domain: 'string', top_level_domain: 'string' };

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Every field of `shape` present in `value` with one of its types; the failures, as `path: expected, got`. */
function mismatches(value: unknown, shape: Record<string, JsonType>, path: string): string[] {
  const obj = (value ?? {}) as Record<string, unknown>;
  return Object.entries(shape).flatMap(([k, type]) => {
    if (!Object.hasOwn(obj, k)) return [`${path}.${k}: missing`];
    const got = typeOf(obj[k]);
    return type.split('|').includes(got) ? [] : [`${path}.${k}: ${type} expected, ${got} found`];
  });
}

/** What the PHP client needs of an account answer read with every `with=` value. */
function phpClientMismatches(answer: Record<string, unknown>): string[] {
  const embedded = (answer._embedded ?? {}) as Record<string, unknown>;
  const list = (v: unknown, shape: Record<string, JsonType>, path: string) =>
    Array.isArray(v) && v.length > 0 ? v.flatMap((x, i) => mismatches(x, shape, `${path}[${i}]`)) : [`${path}: a non-empty array expected`];
  return [
    ...mismatches(answer, FROM_ARRAY, 'account'),
    ...mismatches(answer, WHEN_SET, 'account'),
    ...mismatches(embedded.amojo_rights, AMOJO_RIGHTS, '_embedded.amojo_rights'),
    ...mismatches(embedded.datetime_settings, DATETIME_SETTINGS, '_embedded.datetime_settings'),
    ...list(embedded.users_groups, USERS_GROUP, '_embedded.users_groups'),
    ...list(embedded.task_types, TASK_TYPE, '_embedded.task_types'),
  ];
}

/** The JSON type of every leaf, by path: what "the same shape" means between the record and a live answer. */
function shapeOf(v: unknown, path = ''): Record<string, string> {
  if (v !== null && typeof v === 'object') {
    const entries = Array.isArray(v) ? v.slice(0, 1).map((x) => ['[]', x] as const) : Object.entries(v);
    return Object.assign({}, ...entries.map(([k, x]) => shapeOf(x, `${path}.${k}`)));
  }
  return { [path]: typeOf(v) };
}

const recorded = JSON.parse(readFileSync(new URL('./fixtures/account-answer.json', import.meta.url), 'utf8')) as Record<string, unknown>;

describe('the official PHP client\'s account parse', () => {
  it('finds every field it reads, with the type its setters take, in the recorded answer', () => {
    expect(phpClientMismatches(recorded)).toEqual([]);
  });

  it('would have thrown on the answer the emulator gave before (no created_by, updated_at, ...)', () => {
    const before = Object.fromEntries(Object.entries(recorded).filter(([k]) => !['created_by', 'updated_at', 'updated_by', 'mobile_feature_version', 'is_loss_reason_enabled', 'is_helpbot_enabled', 'contact_name_display_order'].includes(k)));
    expect(phpClientMismatches(before)).toContain('account.created_by: missing');
  });

  describe('against the emulator', () => {
    let emulator: RunningEmulator;
    let control: Control;
    let token: { access_token: string; refresh_token: string };
    beforeAll(async () => {
      emulator = await startEmulator({ seed: 1 });
      control = new Control(emulator.url);
      const env = emulator.env();
      const code = await control.code(env.CLIENT_ID!);
      const r = await fetch(`${emulator.url}/oauth2/access_token`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: env.CLIENT_ID!, client_secret: env.CLIENT_SECRET!, grant_type: 'authorization_code', code, redirect_uri: env.REDIRECT_URI! }),
      });
      token = (await r.json()) as typeof token;
    });
    afterAll(() => emulator?.close());

    it('still answers in the recorded shape, with and without with=', async () => {
      const all = await fetch(`${emulator.url}/api/v4/account?with=${ACCOUNT_WITH.join(',')}`, { headers: { authorization: `Bearer ${token.access_token}` } });
      expect(all.status).toBe(200);
      const answer = (await all.json()) as Record<string, unknown>;
      expect(shapeOf(answer)).toEqual(shapeOf(recorded));
      expect(phpClientMismatches(answer)).toEqual([]);
      const bare = (await (await fetch(`${emulator.url}/api/v4/account`, { headers: { authorization: `Bearer ${token.access_token}` } })).json()) as Record<string, unknown>;
      expect(mismatches(bare, FROM_ARRAY, 'account')).toEqual([]);
    });

    it('answers the subdomain lookup it makes after a 401, in AccountDomainModel\'s shape', async () => {
      const r = await fetch(`${emulator.url}/oauth2/account/current/subdomain`, { headers: { 'x-refresh-token': token.refresh_token } });
      expect(r.status).toBe(200);
      const body = (await r.json()) as Record<string, unknown>;
      expect(mismatches(body, ACCOUNT_DOMAIN, 'domain')).toEqual([]);
      // The client calls the domain it is given: the emulator's own host serves the account's API.
      const again = await fetch(`http://${body.domain as string}/api/v4/account`, { headers: { authorization: `Bearer ${token.access_token}` } });
      expect(again.status).toBe(200);
    });
  });

  describe('its own request, recorded and replayed', () => {
    let replayer: Replayer;
    beforeAll(async () => {
      replayer = await startReplayer();
      const tokens = await replayer.replay(recordedCall(/getAccessTokenByCode/).requests[0]!);
      replayer.secrets.access_token = tokens.access_token;
      replayer.secrets.refresh_token = tokens.refresh_token;
    });
    afterAll(() => replayer?.close());

    it('account()->getCurrent(AccountModel::getAvailableWith()): every with= it sends served, every field it reads there', async () => {
      const { requests: [get], client_read: read } = recordedCall(/account\(\)->getCurrent/);
      const answer = await replayer.replay(get!);
      expect(phpClientMismatches(answer)).toEqual([]);
      // The client's own with= list (uuid, invoices_settings, drive_url beside the spec's): each one present.
      const asked = new URLSearchParams(get!.query).get('with')!.split(',');
      expect(asked).toEqual(expect.arrayContaining(['uuid', 'drive_url', 'datetime_settings']));
      expect(answer).toMatchObject({ id: read.id, subdomain: read.subdomain, customers_mode: read.customers_mode, is_api_filter_enabled: read.is_api_filter_enabled });
      expect({ amojo_id: typeof answer.amojo_id, uuid: typeof answer.uuid, version: typeof answer.version, drive_url: typeof answer.drive_url })
        .toEqual({ amojo_id: 'string', uuid: 'string', version: 'number', drive_url: 'string' });
      expect(answer._embedded.datetime_settings.timezone).toBe(read.timezone);
      expect([answer._embedded.users_groups.length, answer._embedded.task_types.length]).toEqual([read.users_groups, read.task_types]);
    });

    it('getAccountDomainByRefreshToken(): a GET with a body, at the access token\'s api_domain, answered with the account and its host', async () => {
      const { requests: [get], client_read: read } = recordedCall(/getAccountDomainByRefreshToken/);
      const answer = await replayer.replay(get!);
      expect(mismatches(answer, ACCOUNT_DOMAIN, 'domain')).toEqual([]);
      expect(answer).toMatchObject({ id: read.id, subdomain: read.subdomain, top_level_domain: read.top_level_domain });
      // The client sets the domain it is given as its base domain: the account's own host and port.
      expect(read.domain_is_the_account_host).toBe(true);
      expect(answer.domain).toBe(new URL(replayer.account).host);
    });
  });
});
