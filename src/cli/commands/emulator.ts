/**
 * `conformance emulator`: the emulator standalone, printing the .env lines a remote run needs.
 * Secrets are printed in full only when stdout is not a terminal (redirected into a .env file); on a
 * terminal they are masked, so that nothing on screen or in a scroll-back holds them.
 */
import { randomBytes } from 'node:crypto';
import { isFaultName } from '../../emulator/faults.js';
import { isVariationName } from '../../emulator/variations.js';
import type { RunningEmulator } from '../../emulator/index.js';
import { SECRET_KEYS } from '../../targets/config.js';
import { maskSecret } from '../../secrets/mask.js';
import { collect } from '../args.js';
import { defineCommand } from '../command.js';
import { ConfigError } from '../../errors.js';
import { integerSetting } from '../settings.js';
import { LISTS } from '../../protocol/filters.js';
import { FOREIGN_IDS_PER_LIST } from '../../steps/other-account.js';

interface EmulatorFlags {
  readonly host?: string;
  readonly port?: string;
  readonly fault?: readonly string[];
  readonly variation?: readonly string[];
}

export const emulatorCommand = defineCommand<EmulatorFlags>({
  name: 'emulator',
  summary: 'standalone emulator; prints .env lines',
  description: 'Starts the reference emulator with its control API and prints, as KEY=value lines, the URLs and '
    + 'credentials a remote run needs, with the administrator\'s login for the access-granting page (ADMIN_LOGIN, '
    + 'ADMIN_PASSWORD), a long-lived token, a second channel, account and integration, the channel\'s name, a channel '
    + 'with a v1 hook address only, a lead named in Cyrillic and emoji and another account\'s record ids, so that a run '
    + 'without CONTROL_URL takes the live paths a staging account offers. Secrets are printed in full only when stdout '
    + 'is redirected (into a .env file); on a terminal they are masked. Runs until Ctrl-C.',
  examples: [
    ['conformance emulator > .env &', 'then: conformance run --target remote'],
    ['conformance emulator --port 0 --fault token-type-mac', 'a faulty emulator on a free port (see `conformance faults`)'],
  ],
  flags: (command) => command
    .option('--host <host>', 'address to listen on (default: 127.0.0.1)')
    .option('--port <port>', 'port to listen on, 0 for a free one (default: 4010)')
    .option('--fault <name>', 'switch on a fault, repeatable (see `conformance faults`)', collect)
    .option('--variation <name>', 'switch on an allowed variation, repeatable (see `conformance variations`)', collect),
  action: serve,
});

/** A year: the long-lived token the emulator gives outlives any run made from its settings. */
const LONG_LIVED_SECONDS = 365 * 86_400;

async function control<T>(controlUrl: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${controlUrl}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`the emulator's control API ${method} ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

/**
 * The settings a remote run against this emulator needs: its own §4 keys, plus what a staging account's settings give
 * a run without a control API, made or read through the emulator's control API once: the administrator's login for
 * the access-granting page (ADMIN_LOGIN, ADMIN_PASSWORD), a long-lived token made on its Keys tab (LONG_LIVED_TOKEN),
 * a second chat channel (CHANNEL_ID_2, CHANNEL_SECRET_2), a second account's chat id (CHAT_ACCOUNT_ID_2), the
 * integration's name (INTEGRATION_NAME), a private integration's client id (PRIVATE_CLIENT_ID), the channel's name
 * (CHANNEL_NAME), a second integration (CLIENT_ID_2, CLIENT_SECRET_2, REDIRECT_URI_2), a channel with a v1 hook
 * address only (V1_CHANNEL_ID, V1_CHANNEL_SECRET), a lead named in Cyrillic and emoji (NON_ASCII_LEAD_ID,
 * NON_ASCII_LEAD_NAME) and another account's record ids (OTHER_ACCOUNT_RECORD_IDS).
 * So `conformance emulator > .env` with CONTROL_URL removed runs the live paths. The state they were made in is then
 * marked as the baseline (`POST /_control/baseline`), so `POST /_control/reset` keeps every printed setting working.
 */
export async function emulatorSettings(emulator: Pick<RunningEmulator, 'env'>): Promise<Record<string, string>> {
  const env = emulator.env();
  const controlUrl = env.CONTROL_URL!;
  const login = await control<{ login: string; password: string }>(controlUrl, 'GET', '/login');
  const { now } = await control<{ now: number }>(controlUrl, 'GET', '/clock');
  const made = await control<{ long_lived_token: string }>(controlUrl, 'POST', '/long-lived-tokens', { expires_at: now + LONG_LIVED_SECONDS });
  const second = await registerChannel(controlUrl, 'Second channel (CHANNEL_ID_2)');
  const v1Only = await registerChannel(controlUrl, 'Channel with a v1 hook address only (V1_CHANNEL_ID)', ['v1']);
  const chat = await control<{ accounts: { amojo_id: string }[]; channels: { id: string; name: string }[] }>(controlUrl, 'GET', '/chat');
  const otherAccount = chat.accounts.find((a) => a.amojo_id !== env.CHAT_ACCOUNT_ID)?.amojo_id;
  const channelName = chat.channels.find((c) => c.id === env.CHANNEL_ID)?.name;
  const { integrations } = await control<{ integrations: { client_id: string; name: string; private: boolean; redirect_uri: string }[] }>(controlUrl, 'GET', '/integrations');
  const own = integrations.find((i) => i.client_id === env.CLIENT_ID);
  const priv = integrations.find((i) => i.private);
  const other = integrations.find((i) => i.client_id !== env.CLIENT_ID);
  const lead = await control<{ id: number; name: string }>(controlUrl, 'POST', '/lists/leads/records', { name: `Сделка ${randomBytes(4).toString('hex')} 😀` });
  const foreign = await otherAccountRecordIds(controlUrl);
  const secondKeys = other ? await secondIntegration(controlUrl, other) : {};
  // What was just made is part of the printed settings: a control reset returns to it, not to before it.
  await control(controlUrl, 'POST', '/baseline');
  return {
    ...env,
    ADMIN_LOGIN: login.login,
    ADMIN_PASSWORD: login.password,
    LONG_LIVED_TOKEN: made.long_lived_token,
    CHANNEL_ID_2: second.id,
    CHANNEL_SECRET_2: second.secret,
    ...(otherAccount ? { CHAT_ACCOUNT_ID_2: otherAccount } : {}),
    ...(own ? { INTEGRATION_NAME: own.name } : {}),
    ...(priv ? { PRIVATE_CLIENT_ID: priv.client_id } : {}),
    ...(channelName ? { CHANNEL_NAME: channelName } : {}),
    ...secondKeys,
    V1_CHANNEL_ID: v1Only.id,
    V1_CHANNEL_SECRET: v1Only.secret,
    NON_ASCII_LEAD_ID: String(lead.id),
    NON_ASCII_LEAD_NAME: lead.name,
    ...(foreign ? { OTHER_ACCOUNT_RECORD_IDS: foreign } : {}),
  };
}

/** A chat channel registered with a fresh secret (and only the given hook versions' addresses). */
async function registerChannel(controlUrl: string, name: string, hookVersions?: readonly ('v1' | 'v2')[]): Promise<{ id: string; secret: string }> {
  const secret = randomBytes(32).toString('hex');
  const { id } = await control<{ id: string }>(controlUrl, 'POST', '/chat/channels', { secret, name, ...(hookVersions ? { hook_versions: hookVersions } : {}) });
  return { id, secret };
}

/**
 * The integration beside CLIENT_ID as a second integration of the developer: its id and Redirect URI, and a secret key
 * set now, since the control API never shows one.
 */
async function secondIntegration(controlUrl: string, other: { client_id: string; redirect_uri: string }): Promise<Record<string, string>> {
  const { client_secret } = await control<{ client_secret: string }>(controlUrl, 'POST', '/secret', { client_id: other.client_id });
  return { CLIENT_ID_2: other.client_id, CLIENT_SECRET_2: client_secret, REDIRECT_URI_2: other.redirect_uri };
}

/** Ids of another account's records, as many per list as a rule names (FOREIGN_IDS_PER_LIST), none this account holds. */
async function otherAccountRecordIds(controlUrl: string): Promise<string | undefined> {
  const parts: string[] = [];
  for (const list of LISTS) {
    const ids = async (query: string) => (await control<{ records: { id: number }[] }>(controlUrl, 'GET', `/lists/${list}${query}`)).records.map((r) => r.id);
    const own = new Set(await ids(''));
    const foreign = (await ids('?account=other')).filter((id) => !own.has(id)).slice(0, FOREIGN_IDS_PER_LIST);
    if (foreign.length > 0) parts.push(`${list}:${foreign.join(',')}`);
  }
  return parts.length > 0 ? parts.join(';') : undefined;
}

async function serve(values: EmulatorFlags): Promise<number> {
  const host = values.host ?? '127.0.0.1';
  const port = integerSetting('--port', values.port, { min: 0 }) ?? 4010;
  if (port > 65535) throw new ConfigError('--port', `must be at most 65535, got "${port}"`);
  const unknown = (values.fault ?? []).filter((f) => !isFaultName(f));
  if (unknown.length > 0) throw new ConfigError('--fault', `names no fault: ${unknown.join(', ')} (see \`conformance faults\`)`);
  // Loaded here: the other commands never load the emulator's server (fastify, the seeded records).
  const { startEmulator } = await import('../../emulator/index.js');
  const badVariations = (values.variation ?? []).filter((v) => !isVariationName(v));
  if (badVariations.length > 0) throw new ConfigError('--variation', `names no variation: ${badVariations.join(', ')} (see \`conformance variations\`)`);
  const emulator = await startEmulator({ host, port, faults: values.fault ?? [], variations: values.variation ?? [] });
  const revealSecrets = !process.stdout.isTTY;
  for (const [key, value] of Object.entries(await emulatorSettings(emulator))) {
    const shown = revealSecrets || !(SECRET_KEYS as readonly string[]).includes(key) ? value : maskSecret(value);
    process.stdout.write(`${key}=${shown}\n`);
  }
  process.stderr.write(`emulator listening on ${emulator.url}${revealSecrets ? '' : ' (secrets masked on a terminal: run `conformance emulator > .env` to save them)'}; Ctrl-C stops it\n`);
  await new Promise<void>((done) => {
    const stop = () => done();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await emulator.close();
  return 0;
}
