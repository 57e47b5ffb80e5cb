/**
 * The official PHP client's requests, recorded (`fixtures/php-requests.json`, made by `npm run record:php`:
 * docs/sandbox.md, "The official PHP client"), and a replayer that sends them again as recorded, but for their secrets,
 * to a sandbox started as the recording's was (`startSandbox`, its seed, https), at the account's own host name. No php
 * is needed.
 */
import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch, request } from 'undici';
import { expect } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox.js';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  /** The status it was answered at the recording: one the client went on from. */
  readonly status: number;
}

export interface RecordedCall {
  readonly what: string;
  /** What was done to the sandbox, beside the client, before the call. */
  readonly before?: { readonly clock_advanced_seconds?: number };
  readonly requests: readonly RecordedRequest[];
  /** What the client read from the answers, as record.php printed it. */
  readonly client_read: Record<string, any>;
}

export interface PhpRecording {
  readonly client: string;
  readonly seed: number;
  readonly ids: { readonly lead: number; readonly set_field: number; readonly cleared_field: number; readonly date_field: number; readonly pipeline: number };
  readonly calls: readonly RecordedCall[];
}

export const RECORDING_TEXT = readFileSync(new URL('./fixtures/php-requests.json', import.meta.url), 'utf8');
export const recording = JSON.parse(RECORDING_TEXT) as PhpRecording;

/** The recorded call whose description matches. */
export function recordedCall(what: RegExp): RecordedCall {
  const found = recording.calls.find((c) => what.test(c.what));
  if (!found) throw new Error(`the PHP recording holds no call matching ${what}`);
  return found;
}

export interface Replayer {
  /** The sandbox, made as the recording's was: its settings made the same records, so the same ids and pages. */
  readonly sandbox: Sandbox;
  /**
   * What stands for each secret of the recording ({{name}}) here: the client id and secret and a fresh code at the
   * start; a test sets the tokens from the answers it replayed (`access_token`, `refresh_token`, `access_token_2`, ...).
   */
  readonly secrets: Record<string, string>;
  /** The account's own address, `https://<subdomain>.sandbox.localhost:<port>`, where the client sent every request. */
  readonly account: string;
  /** Sends one recorded request, its path rewritten by `path`; expects the recorded status; the answer's JSON. */
  replay(req: RecordedRequest, path?: (p: string) => string): Promise<any>;
  /** A GET of the account's API with the replayed access token: what the records hold now. */
  get(path: string): Promise<any>;
  close(): Promise<void>;
}

/**
 * Why the recording no longer fits the sandbox's data, if it does not: ids are the seed's, and a change to the seeded
 * records or to what the settings make moves them. The answer then is a new recording, not a new expectation.
 */
async function misfit(sandbox: Sandbox): Promise<string | undefined> {
  const { lead, set_field, cleared_field, date_field, pipeline } = recording.ids;
  const leads = (await sandbox.control<{ records: { id: number; pipeline_id?: number; custom_fields_values?: { field_id: number; field_type: string }[] | null }[] }>('GET', '/lists/leads')).records;
  const held = leads.find((l) => l.id === lead)?.custom_fields_values;
  if (!held) return `lead ${lead} is gone or holds no custom field`;
  const types = new Map(held.map((v) => [v.field_id, v.field_type]));
  if (![...types.values()].includes('date') || types.get(date_field) !== 'date_time') return `lead ${lead} no longer holds a date and the date-time field ${date_field}`;
  if (types.has(set_field) || !types.has(cleared_field)) return `lead ${lead} holds field ${set_field} or lacks field ${cleared_field}`;
  const inPipeline = leads.filter((l) => l.pipeline_id === pipeline).length;
  const pages = recordedCall(/nextPage/).client_read.pages as number[][];
  if (inPipeline !== pages.flat().length) return `pipeline ${pipeline} holds ${inPipeline} leads, ${pages.flat().length} at the recording`;
  return undefined;
}

export async function startReplayer(): Promise<Replayer> {
  const sandbox = await startSandbox({ https: true, seed: recording.seed });
  const why = await misfit(sandbox);
  if (why) {
    await sandbox.close();
    throw new Error(`the PHP recording (${recording.client}) no longer fits the sandbox's seeded data: ${why}. Record it again: `
      + '`npm run record:php` (docs/sandbox.md, "The official PHP client").');
  }
  // The client reached the account at its own host name, resolved by curl's CURLOPT_RESOLVE; here by the lookup.
  const agent = new Agent({ connect: { ca: sandbox.tls!.ca, lookup: sandbox.lookup } });
  const account = sandbox.accountUrl();
  const { CLIENT_ID, CLIENT_SECRET } = sandbox.settings;
  const { code } = await sandbox.control<{ code: string }>('POST', '/consent', { client_id: CLIENT_ID, decision: 'allow' });
  const secrets: Record<string, string> = { client_id: CLIENT_ID!, client_secret: CLIENT_SECRET!, code };
  const fill = (text: string, encode: (s: string) => string) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = secrets[name];
    if (value === undefined) throw new Error(`no value for {{${name}}} yet`);
    return encode(value);
  });
  return {
    sandbox, secrets, account,
    async replay(req, path = (p) => p) {
      const type = Object.entries(req.headers).find(([k]) => /^content-type$/i.test(k))?.[1] ?? '';
      // Content-Length is the recorded body's: the filled-in one has its own, which fetch sets.
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !/^content-length$/i.test(k)).map(([k, v]) => [k, fill(v, (s) => s)]));
      // undici's request, not fetch: the client sends a GET with a body (`[]`, guzzle's `json` option), which fetch refuses.
      const res = await request(`${account}${path(req.path)}${req.query ? `?${req.query}` : ''}`, {
        method: req.method as 'GET', headers, dispatcher: agent,
        ...(req.body !== null && { body: fill(req.body, /x-www-form-urlencoded/i.test(type) ? encodeURIComponent : (s) => s) }),
      });
      const text = await res.body.text();
      expect(res.statusCode, `${req.method} ${req.path}: ${text}`).toBe(req.status);
      return text ? JSON.parse(text) : undefined;
    },
    async get(path) {
      const res = await undiciFetch(`${account}${path}`, { headers: { authorization: `Bearer ${secrets.access_token}` }, dispatcher: agent });
      expect(res.status, path).toBe(200);
      return res.json();
    },
    close: async () => { await agent.close(); await sandbox.close(); },
  };
}
