/**
 * Builds a TargetConfig from docs/design.md §4 environment keys, checking each one and naming it when it is bad.
 * The embedded emulator goes through the same function with the keys it prints, so both paths agree.
 */
import { ConfigError } from '../errors.js';
import { chromiumGap } from '../browser/launch.js';
import type { ClientRegistration, Credentials } from '../model/target.js';
import { LISTS } from '../protocol/filters.js';
import { ENV_KEYS, NEED_SETTING_GROUPS } from '../needs/settings.js';
import { HOOK_API_VERSIONS, type Capability, type HookApiVersion, type ProxySettings, type TargetConfig, type TargetKind } from '../model/target.js';
import { parseHostRules, type HostRule } from '../host-resolve.js';
import { readCaFile } from '../trust.js';

/**
 * A key of docs/design.md §4. The keys are listed once, in src/needs/settings.ts (ENV_KEYS); test/needs/settings.test.ts
 * holds every key this file reads to that list.
 */
export type EnvKey = string;

export type Env = Partial<Record<EnvKey, string>> & Record<string, string | undefined>;

export function httpUrl(env: Env, key: EnvKey, options: { required: boolean }): string | undefined {
  const raw = env[key]?.trim();
  if (!raw) {
    if (options.required) throw new ConfigError(key, 'is not set (needed for a remote target; see env.example)');
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(key, `is not a valid URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(key, `must be an http(s) URL, got "${raw}"`);
  if (url.search || url.hash) throw new ConfigError(key, `must not carry a query or fragment: "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function required(env: Env, key: EnvKey): string {
  const v = env[key]?.trim();
  if (!v) throw new ConfigError(key, 'is not set (needed for a remote target; see env.example)');
  return v;
}

function optional(env: Env, key: EnvKey): string | undefined {
  return env[key]?.trim() || undefined;
}

export function positiveNumber(env: Env, key: EnvKey): number | undefined {
  const raw = optional(env, key);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(key, `must be a positive number, got "${raw}"`);
  return n;
}

/** Remote targets default to the service's public limit of 7 per second; 0 means no limit (a local sandbox). */
export const DEFAULT_RATE_LIMIT_RPS = 7;

function rateLimit(env: Env, key: EnvKey, kind: TargetKind): number | undefined {
  if (env[key]?.trim() === '0') return undefined;
  return positiveNumber(env, key) ?? (kind === 'remote' ? DEFAULT_RATE_LIMIT_RPS : undefined);
}

/** The chat interface's own ceiling; unset, the account API's (RATE_LIMIT_RPS=0 for a local sandbox covers both). */
function chatRateLimit(env: Env, kind: TargetKind, apiRps: number | undefined): number | undefined {
  return optional(env, 'CHAT_RATE_LIMIT_RPS') === undefined ? apiRps : rateLimit(env, 'CHAT_RATE_LIMIT_RPS', kind);
}

/** HOST_RESOLVE: the names the kit resolves itself; a malformed pair is named with the key. */
export function hostRulesOf(env: Env): HostRule[] {
  const raw = optional(env, 'HOST_RESOLVE');
  if (raw === undefined) return [];
  try {
    return parseHostRules(raw);
  } catch (err) {
    throw new ConfigError('HOST_RESOLVE', `${(err as Error).message}; expected <name>=<address>[,<name>=<address>...], e.g. *.sandbox.localhost=127.0.0.1`);
  }
}

/** CA_FILE: the certificates of the CAs the kit trusts beside the system's, PEM; a file that gives none is named with the key. */
export function caOf(env: Env): string | undefined {
  const path = optional(env, 'CA_FILE');
  if (path === undefined) return undefined;
  try {
    return readCaFile(path);
  } catch (err) {
    throw new ConfigError('CA_FILE', `${(err as Error).message}; expected a file of PEM CA certificates`);
  }
}

/**
 * HTTPS_PROXY, HTTP_PROXY and NO_PROXY, each also in lower case, which wins as with curl: the proxies every request of
 * the kit goes through (a CI runner that reaches staging only through its proxy). A proxy is an http(s) URL, its
 * credentials in it as curl takes them.
 */
export function proxyOf(env: Env): ProxySettings | undefined {
  const url = (key: string): string | undefined => {
    const lower = key.toLowerCase();
    const raw = optional(env, lower) !== undefined ? lower : key;
    const value = optional(env, raw);
    if (value === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    } catch {
      throw new ConfigError(raw, 'is not a proxy URL (expected http://host:port, as curl reads it)');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(raw, `must be an http:// or https:// proxy, got ${parsed.protocol}//`);
    return parsed.href.replace(/\/$/, '');
  };
  const httpsProxy = url('HTTPS_PROXY');
  const httpProxy = url('HTTP_PROXY');
  const noProxy = optional(env, 'no_proxy') ?? optional(env, 'NO_PROXY');
  if (!httpsProxy && !httpProxy) return undefined;
  return { ...(httpsProxy ? { httpsProxy } : {}), ...(httpProxy ? { httpProxy } : {}), ...(noProxy ? { noProxy } : {}) };
}

function hostPort(env: Env, key: EnvKey): string | undefined {
  const raw = optional(env, key);
  if (raw === undefined) return undefined;
  if (!/^[\w.-]+:\d{1,5}$|^\[[\da-f:]+\]:\d{1,5}$/i.test(raw)) throw new ConfigError(key, `must be host:port, got "${raw}"`);
  return raw;
}

/**
 * CONFORMANCE_BROWSER: 1/true asks for the browser rules on a remote target; 0/false leaves them out. Unset, they run
 * when ADMIN_LOGIN is given: that login is only ever used in the browser, on the access-granting page.
 */
function browserWanted(env: Env): boolean {
  const raw = optional(env, 'CONFORMANCE_BROWSER')?.toLowerCase();
  if (raw === undefined) return optional(env, 'ADMIN_LOGIN') !== undefined;
  if (raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError('CONFORMANCE_BROWSER', `must be 1 or 0, got "${raw}"`);
}

/** ADMIN_LOGIN and ADMIN_PASSWORD come together: one without the other cannot log in, so it is a mistake to name. */
function adminLogin(env: Env): { adminLogin?: string; adminPassword?: string } {
  const login = optional(env, 'ADMIN_LOGIN');
  const password = env.ADMIN_PASSWORD || undefined;
  if (login && !password) throw new ConfigError('ADMIN_PASSWORD', 'is not set, but ADMIN_LOGIN is (the access-granting page needs both)');
  if (password && !login) throw new ConfigError('ADMIN_LOGIN', 'is not set, but ADMIN_PASSWORD is (the access-granting page needs both)');
  return login && password ? { adminLogin: login, adminPassword: password } : {};
}

/** CHANNEL_HOOK_API_VERSION: v1 or v2 as §2.4 spells them; absent, the spec's default v1. */
function channelHookApiVersion(env: Env): HookApiVersion | undefined {
  const raw = optional(env, 'CHANNEL_HOOK_API_VERSION');
  if (raw === undefined) return undefined;
  if (!(HOOK_API_VERSIONS as readonly string[]).includes(raw)) {
    throw new ConfigError('CHANNEL_HOOK_API_VERSION', `must be ${HOOK_API_VERSIONS.join(' or ')} (the hook version whose address the channel's settings hold), got "${raw}"`);
  }
  return raw as HookApiVersion;
}

/** CHANNEL_ID_2 and CHANNEL_SECRET_2 come together, as the channel's id and its signing key do. */
function secondChannel(env: Env): { channelId2?: string; channelSecret2?: string } {
  const id = optional(env, 'CHANNEL_ID_2');
  const secret = optional(env, 'CHANNEL_SECRET_2');
  if (id && !secret) throw new ConfigError('CHANNEL_SECRET_2', 'is not set, but CHANNEL_ID_2 is (the second channel needs both)');
  if (secret && !id) throw new ConfigError('CHANNEL_ID_2', 'is not set, but CHANNEL_SECRET_2 is (the second channel needs both)');
  return id && secret ? { channelId2: id, channelSecret2: secret } : {};
}

/** Keys that come together: the first one missing while another is set is named. */
function together(env: Env, keys: readonly EnvKey[], what: string): boolean {
  const set = keys.filter((k) => optional(env, k) !== undefined);
  if (set.length === 0) return false;
  const missing = keys.find((k) => !set.includes(k));
  if (missing) throw new ConfigError(missing, `is not set, but ${set.join(' and ')} ${set.length > 1 ? 'are' : 'is'} (${what} needs ${keys.join(', ')})`);
  return true;
}

/** A record's or user's id set in `key` (present: the caller checked it with `together`), a positive integer. */
function positiveId(env: Env, key: EnvKey, what: string): number {
  const raw = optional(env, key)!;
  const id = positiveInteger(raw);
  if (id === undefined) throw new ConfigError(key, `must be ${what} (a positive integer), got "${raw}"`);
  return id;
}

/** The positive integer written in `raw` (decimal digits alone), else undefined. */
function positiveInteger(raw: string): number | undefined {
  const n = Number(raw);
  return /^\d+$/.test(raw) && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** A name shown to people (a channel's): one line, as the service shows it. */
function displayName(env: Env, key: EnvKey): string | undefined {
  const v = optional(env, key);
  if (v !== undefined && /[\u0000-\u001f\u007f]/.test(v)) throw new ConfigError(key, 'must be one line without control characters');
  return v;
}

/** CLIENT_ID_2, CLIENT_SECRET_2 and REDIRECT_URI_2: another integration of the developer, never CLIENT_ID itself. */
function secondClient(env: Env): ClientRegistration | undefined {
  if (!together(env, ['CLIENT_ID_2', 'CLIENT_SECRET_2', 'REDIRECT_URI_2'], 'the second integration')) return undefined;
  const clientId = optional(env, 'CLIENT_ID_2')!;
  if (clientId === optional(env, 'CLIENT_ID')) throw new ConfigError('CLIENT_ID_2', 'names CLIENT_ID: a second integration of the developer is needed, with its own id');
  return { clientId, clientSecret: optional(env, 'CLIENT_SECRET_2')!, redirectUri: httpUrl(env, 'REDIRECT_URI_2', { required: true })! };
}

/** V1_CHANNEL_ID and V1_CHANNEL_SECRET: a channel of its own, not one the other chat rules connect and disconnect. */
function v1Channel(env: Env): Pick<Credentials, 'v1ChannelId' | 'v1ChannelSecret'> {
  if (!together(env, ['V1_CHANNEL_ID', 'V1_CHANNEL_SECRET'], 'the channel with a v1 hook address only')) return {};
  const id = optional(env, 'V1_CHANNEL_ID')!;
  for (const other of ['CHANNEL_ID', 'CHANNEL_ID_2'] as const) {
    if (id === optional(env, other)) throw new ConfigError('V1_CHANNEL_ID', `names ${other}: a channel of its own is needed, whose settings hold a v1 hook address only`);
  }
  return { v1ChannelId: id, v1ChannelSecret: optional(env, 'V1_CHANNEL_SECRET')! };
}

/** NON_ASCII_LEAD_ID and NON_ASCII_LEAD_NAME: the lead's id and its name, which must hold a non-ASCII character. */
function nonAsciiLead(env: Env): Credentials['nonAsciiLead'] {
  if (!together(env, ['NON_ASCII_LEAD_ID', 'NON_ASCII_LEAD_NAME'], 'the lead named in non-ASCII characters')) return undefined;
  const id = positiveId(env, 'NON_ASCII_LEAD_ID', "a lead's id");
  const name = optional(env, 'NON_ASCII_LEAD_NAME')!;
  if (/^[\u0000-\u007f]*$/.test(name)) throw new ConfigError('NON_ASCII_LEAD_NAME', `must hold a non-ASCII character (Cyrillic, an emoji), got "${name}"`);
  return { id, name };
}

/** RESTRICTED_ACCESS_TOKEN and RESTRICTED_USER_ID: a token granted by a user who may see only his own deals, and his id. */
function restrictedUser(env: Env): Credentials['restrictedUser'] {
  if (!together(env, ['RESTRICTED_ACCESS_TOKEN', 'RESTRICTED_USER_ID'], 'the restricted user\'s token')) return undefined;
  const userId = positiveId(env, 'RESTRICTED_USER_ID', "a user's id");
  const token = optional(env, 'RESTRICTED_ACCESS_TOKEN')!;
  // The rights rules compare his list with the administrator's: the same token on both sides would judge nothing.
  if (token === optional(env, 'LONG_LIVED_TOKEN')) throw new ConfigError('RESTRICTED_ACCESS_TOKEN', "is LONG_LIVED_TOKEN; set a token granted by the user who may see only his own deals");
  return { token, userId };
}

/**
 * OTHER_ACCOUNT_RECORD_IDS: `leads:11,12;contacts:21`, ids of records of another account per list (any of the four
 * lists, each at most once).
 */
function otherAccountRecordIds(env: Env): Credentials['otherAccountRecordIds'] {
  const raw = optional(env, 'OTHER_ACCOUNT_RECORD_IDS');
  if (raw === undefined) return undefined;
  const out: Record<string, number[]> = {};
  const bad = (why: string) => new ConfigError('OTHER_ACCOUNT_RECORD_IDS', `${why} (expected <list>:<id>,<id>;<list>:<id>, e.g. leads:11,12;contacts:21), got "${raw}"`);
  for (const part of raw.split(';').map((p) => p.trim()).filter(Boolean)) {
    const [list, ids, extra] = part.split(':').map((p) => p.trim());
    if (extra !== undefined || !list || !ids) throw bad(`has a part that is not <list>:<ids>: "${part}"`);
    if (!(LISTS as readonly string[]).includes(list)) throw bad(`names no list of §4.2: "${list}" (${LISTS.join(', ')})`);
    if (out[list]) throw bad(`names ${list} twice`);
    out[list] = ids.split(',').map((id) => {
      const n = positiveInteger(id.trim());
      if (n === undefined) throw bad(`has an id that is not a positive integer: "${id.trim()}"`);
      return n;
    });
  }
  if (Object.keys(out).length === 0) throw bad('names no list');
  return out;
}

/** The settings that let rules run without a control API beyond the ones above. */
function liveSettings(env: Env): Partial<Credentials> {
  const channelName = displayName(env, 'CHANNEL_NAME');
  const client2 = secondClient(env);
  const lead = nonAsciiLead(env);
  const foreign = otherAccountRecordIds(env);
  const restricted = restrictedUser(env);
  return {
    ...(channelName ? { channelName } : {}),
    ...(client2 ? { secondClient: client2 } : {}),
    ...v1Channel(env),
    ...(lead ? { nonAsciiLead: lead } : {}),
    ...(foreign ? { otherAccountRecordIds: foreign } : {}),
    ...(restricted ? { restrictedUser: restricted } : {}),
  };
}

/** BASE_URL_2: a second account's own address, which the run's BASE_URL cannot be. */
function secondBaseUrl(env: Env, baseUrl: string): string | undefined {
  const url = httpUrl(env, 'BASE_URL_2', { required: false });
  if (url !== undefined && new URL(url).href === new URL(baseUrl).href) throw new ConfigError('BASE_URL_2', `names BASE_URL itself ("${url}"); set the address of a second account`);
  return url;
}

/** MEMBER_ACCOUNT: an account id (digits) or its domain (`example.amocrm.ru`, or the sub-domain alone). */
function memberAccount(env: Env): string | undefined {
  const raw = optional(env, 'MEMBER_ACCOUNT');
  if (raw !== undefined && !/^(?:\d+|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)$/i.test(raw)) {
    throw new ConfigError('MEMBER_ACCOUNT', `must be an account id or the account's domain, got "${raw}"`);
  }
  return raw;
}

/**
 * Every setting that is set, by key, once the keys of each settings group of the catalogue were found to come
 * together (a group's own checks above name the problem more precisely, and run first).
 */
function checkedSettings(env: Env): Record<string, string> {
  for (const group of NEED_SETTING_GROUPS) {
    if (group.keys.length > 1) together(env, group.keys.map((s) => s.key), group.doc);
  }
  return Object.fromEntries(ENV_KEYS.flatMap((key) => {
    const value = optional(env, key);
    return value === undefined ? [] : [[key, value]];
  }));
}

export function targetFromEnv(env: Env, kind: TargetKind = 'remote'): TargetConfig {
  const baseUrl = httpUrl(env, 'BASE_URL', { required: true })!;
  const controlUrl = httpUrl(env, 'CONTROL_URL', { required: false });
  // The embedded emulator: the kit listens on an ephemeral loopback port and registers it through the control API.
  const hookListen = hostPort(env, 'HOOK_LISTEN') ?? (kind === 'emulator' ? '127.0.0.1:0' : undefined);
  const capabilities: Capability[] = ['write'];
  const gaps: Partial<Record<Capability, string>> = {};
  if (controlUrl) capabilities.push('control');
  else gaps.control = 'the target has no control API (CONTROL_URL is not set)';
  if (hookListen) capabilities.push('hook');
  else gaps.hook = 'the kit has no address to receive the disconnect hook (HOOK_LISTEN is not set)';
  // The emulator's page always runs in the browser when there is one; a remote target only when asked.
  const noChromium = chromiumGap();
  const ca = caOf(env);
  if (kind === 'remote' && !browserWanted(env)) gaps.browser = 'browser rules are not part of this run (set CONFORMANCE_BROWSER=1, or ADMIN_LOGIN, to run them)';
  else if (noChromium) gaps.browser = noChromium;
  else capabilities.push('browser');
  const hostRules = hostRulesOf(env);
  // The embedded emulator is the run's own, on loopback: only a remote target is reached through a proxy.
  const proxy = kind === 'remote' ? proxyOf(env) : undefined;
  const rateLimitRps = rateLimit(env, 'RATE_LIMIT_RPS', kind);
  const chatRateLimitRps = chatRateLimit(env, kind, rateLimitRps);
  const effectWindowMs = positiveNumber(env, 'EFFECT_WINDOW_MS');
  const baseUrl2 = secondBaseUrl(env, baseUrl);
  const member = memberAccount(env);
  return {
    kind,
    baseUrl,
    authUrl: httpUrl(env, 'AUTH_URL', { required: false }) ?? baseUrl,
    chatUrl: httpUrl(env, 'CHAT_URL', { required: false }) ?? baseUrl,
    ...(controlUrl ? { controlUrl } : {}),
    ...(hookListen ? { hookListen } : {}),
    ...(hostRules.length > 0 ? { hostRules } : {}),
    ...(ca ? { ca } : {}),
    ...(proxy ? { proxy } : {}),
    ...(rateLimitRps ? { rateLimitRps } : {}),
    ...(chatRateLimitRps ? { chatRateLimitRps } : {}),
    ...(effectWindowMs ? { effectWindowMs } : {}),
    ...(kind === 'remote' ? { tokenStore: optional(env, 'TOKEN_STORE') ?? '.tokens.json' } : {}),
    credentials: {
      clientId: required(env, 'CLIENT_ID'),
      clientSecret: required(env, 'CLIENT_SECRET'),
      redirectUri: httpUrl(env, 'REDIRECT_URI', { required: true })!,
      authCode: optional(env, 'AUTH_CODE'),
      refreshToken: optional(env, 'REFRESH_TOKEN'),
      longLivedToken: optional(env, 'LONG_LIVED_TOKEN'),
      channelId: optional(env, 'CHANNEL_ID'),
      channelSecret: optional(env, 'CHANNEL_SECRET'),
      chatAccountId: optional(env, 'CHAT_ACCOUNT_ID'),
      botId: optional(env, 'BOT_ID'),
      managerUserId: optional(env, 'MANAGER_USER_ID'),
      ...(channelHookApiVersion(env) ? { channelHookApiVersion: channelHookApiVersion(env) } : {}),
      ...adminLogin(env),
      ...secondChannel(env),
      ...(optional(env, 'CHAT_ACCOUNT_ID_2') ? { chatAccountId2: optional(env, 'CHAT_ACCOUNT_ID_2') } : {}),
      ...(optional(env, 'PRIVATE_CLIENT_ID') ? { privateClientId: optional(env, 'PRIVATE_CLIENT_ID') } : {}),
      ...(optional(env, 'INTEGRATION_NAME') ? { integrationName: optional(env, 'INTEGRATION_NAME') } : {}),
      ...liveSettings(env),
      ...(baseUrl2 ? { baseUrl2 } : {}),
      ...(member ? { memberAccount: member } : {}),
    },
    capabilities,
    gaps,
    settings: checkedSettings(env),
  };
}
