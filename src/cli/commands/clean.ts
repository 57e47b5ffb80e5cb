/**
 * `conformance clean`: what earlier remote runs left on a staging account, found by the run ids their records carry
 * (`run-<seed>-<time>`: every name a run gives carries its id, among them the chat clients whose first message makes an
 * unsorted lead and its contact). The spec offers no way to delete a record through the API (§4.2 lists are read-only,
 * §4.3 has no delete of a chat or a message): clean lists them per run, for removal in the account's own interface,
 * and with --disconnect disconnects the configured channels from the chat account, the one removal §4.3 allows (the
 * next run connects them again).
 */
import { ConfigError } from '../../errors.js';
import { chatPaths, chatRequest } from '../../protocol/chat.js';
import { accountRequest } from '../../protocol/oauth.js';
import { clientFor, maskerFor } from '../../runner/execute.js';
import { TokenStore } from '../../secrets/token-store.js';
import { targetFromEnv } from '../../targets/from-env.js';
import type { HttpClient } from '../../targets/http.js';
import { assertReachable } from '../../targets/reachability.js';
import { TokenSource } from '../../targets/token-source.js';
import type { TargetConfig } from '../../model/target.js';
import { existsSync } from 'node:fs';
import { defineCommand } from '../command.js';
import { loadEnv } from '../settings.js';

interface CleanFlags {
  readonly envFile?: string;
  readonly run?: string;
  readonly disconnect?: boolean;
}

/** A run id as src/runner/execute.ts makes them: the seed and the start, base 36. */
export const RUN_ID = /\brun-[0-9a-z]+-[0-9a-z]{6,}\b/g;

/** The lists §4.2 searches with `query` (customers have none). */
const SEARCHED_LISTS = ['leads', 'contacts', 'companies'] as const;
/** Pages followed per list at most: a staging account of years of nightly runs is still listed in a bounded time. */
const MAX_PAGES = 20;

export interface LeftRecord {
  readonly list: string;
  readonly id: unknown;
  readonly name: string;
  readonly runId: string;
}

export const cleanCommand = defineCommand<CleanFlags>({
  name: 'clean',
  summary: 'list (and where the spec allows, remove) what earlier remote runs created',
  description: 'Finds on the remote target the records earlier runs created, by the run id (run-<seed>-<time>) their names '
    + 'carry: the leads, contacts and companies whose name holds one (searched with the lists\' `query`, §4.2), grouped by '
    + 'run. The spec has no way to delete them through the API, so they are listed for removal in the account\'s interface. '
    + '--disconnect also disconnects the configured channels (CHANNEL_ID, CHANNEL_ID_2, V1_CHANNEL_ID) from CHAT_ACCOUNT_ID, '
    + 'which §4.3 allows. Reads the account with LONG_LIVED_TOKEN, else the token store. Exit 0, 2 for a setting, 3 unreachable.',
  examples: [
    ['conformance clean', 'what every earlier run left on the account of .env'],
    ['conformance clean --run run-3-mnq1x2ab', 'what one run left (its id is in report.json and in the run\'s opening line)'],
    ['conformance clean --disconnect', 'and disconnect the configured channels from the chat account'],
  ],
  flags: (command) => command
    .option('--env-file <path>', 'settings file (default: .env when present); the process environment wins')
    .option('--run <id>', 'only the records of this run id')
    .option('--disconnect', 'disconnect the configured channels from CHAT_ACCOUNT_ID (§4.3 "Disconnect channel")'),
  action: clean,
});

async function clean(flags: CleanFlags): Promise<number> {
  if (flags.run !== undefined && !new RegExp(`^${RUN_ID.source}$`).test(flags.run)) throw new ConfigError('--run', `is not a run id (run-<seed>-<time>, as report.json names it): "${flags.run}"`);
  const target = targetFromEnv(loadEnv(flags.envFile), 'remote');
  const client = clientFor(target);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  try {
    await assertReachable(target, client);
    const token = await accountToken(target, client);
    const left = (await leftRecords(target, client, token)).filter((r) => flags.run === undefined || r.runId === flags.run);
    const runs = new Map<string, LeftRecord[]>();
    for (const r of left) runs.set(r.runId, [...(runs.get(r.runId) ?? []), r]);
    out(`${left.length} record(s) of ${runs.size} earlier run(s) on ${target.baseUrl}${left.length > 0 ? ':' : '.'}`);
    for (const [runId, records] of runs) {
      out(`  ${runId}: ${records.length}`);
      for (const r of records) out(`    ${r.list} ${String(r.id)}: ${r.name}`);
    }
    if (left.length > 0) out('The spec offers no deletion of these through the API (§4.2 lists are read-only): remove them in the account\'s interface (search for the run id).');
    out('Chats and messages of the chat interface have no list and no deletion in the spec (§4.3): they stay, each conversation id carrying its run id.');
    if (flags.disconnect) for (const line of await disconnectChannels(target, client)) out(line);
    return 0;
  } finally {
    await client.close();
  }
}

async function accountToken(target: TargetConfig, client: HttpClient): Promise<string> {
  if (target.credentials.longLivedToken) return target.credentials.longLivedToken;
  if (target.tokenStore && (existsSync(target.tokenStore) || target.credentials.refreshToken)) {
    return new TokenSource(new TokenStore(target.tokenStore), target, client, maskerFor(target)).accessToken();
  }
  throw new ConfigError('LONG_LIVED_TOKEN', 'is not set, and there is no token store: clean reads the account\'s lists with a token (or run `conformance authorize`)');
}

/** The records of the searched lists whose name carries a run id. */
export async function leftRecords(target: TargetConfig, client: HttpClient, token: string): Promise<LeftRecord[]> {
  const found: LeftRecord[] = [];
  for (const list of SEARCHED_LISTS) {
    let url: string | undefined = `${target.baseUrl}/api/v4/${list}?query=run-`;
    for (let page = 0; url && page < MAX_PAGES; page += 1) {
      const res = await client.send({ ...accountRequest(target, token), url });
      if (res.status === 204) break;
      if (res.status !== 200) throw new ConfigError('LONG_LIVED_TOKEN', `cannot read ${list} (GET /api/v4/${list} answered ${res.status})`);
      const body = JSON.parse(res.text) as { _embedded?: Record<string, { id?: unknown; name?: unknown }[]>; _links?: { next?: { href?: unknown } } };
      for (const record of body._embedded?.[list] ?? []) {
        const name = typeof record.name === 'string' ? record.name : '';
        for (const runId of new Set(name.match(RUN_ID) ?? [])) found.push({ list, id: record.id, name, runId });
      }
      const next = body._links?.next?.href;
      url = typeof next === 'string' && next !== url ? new URL(next, target.baseUrl).href : undefined;
    }
  }
  return found;
}

/** §4.3 "Disconnect channel" for each configured channel in CHAT_ACCOUNT_ID: 200, or 404 for a channel unknown. */
async function disconnectChannels(target: TargetConfig, client: HttpClient): Promise<string[]> {
  const c = target.credentials;
  if (!c.chatAccountId) throw new ConfigError('CHAT_ACCOUNT_ID', 'is not set: --disconnect disconnects the configured channels from that chat account');
  const channels = [[c.channelId, c.channelSecret, 'CHANNEL_ID'], [c.channelId2, c.channelSecret2, 'CHANNEL_ID_2'], [c.v1ChannelId, c.v1ChannelSecret, 'V1_CHANNEL_ID']] as const;
  const lines: string[] = [];
  for (const [id, secret, key] of channels) {
    if (!id || !secret) continue;
    const res = await client.send(chatRequest({ method: 'DELETE', path: chatPaths.disconnect(id), json: { account_id: c.chatAccountId } }, { chatUrl: target.chatUrl, secret, now: new Date() }));
    lines.push(`${key}: disconnected from CHAT_ACCOUNT_ID (${res.status})`);
  }
  return lines;
}
