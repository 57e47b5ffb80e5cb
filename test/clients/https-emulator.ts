/**
 * What the public-client tests share: the emulator started over https as a client meets the live service (its own CA,
 * trusted only by the agents the tests hand the clients; each account at `https://<subdomain>.sandbox.localhost`,
 * resolved by the emulator's `lookup`), and a small control-API caller the tests mint authorization codes and
 * read ground truth with. No TLS terminator in front: the client tests reach the emulator directly (issue 30).
 */
import { Agent, fetch as undiciFetch } from 'undici';
import { expect } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

export interface HttpsEmulator {
  readonly emulator: RunningEmulator;
  /** The CA in PEM, to trust through a client's agent. */
  readonly ca: string;
  readonly port: number;
  /** Resolves the accounts' host names (`*.sandbox.localhost`) to the loopback: a client agent's `lookup`. */
  readonly lookup: RunningEmulator['lookup'];
  /** The main account's host name, `<subdomain>.sandbox.localhost`, as a client that builds it from the subdomain has it. */
  readonly accountHost: string;
  /** `fetch` trusting the CA: the tests' own calls beside the client's. */
  fetch(url: string, init?: RequestInit): Promise<Response>;
  readonly control: Control;
  close(): Promise<void>;
}

/** The emulator over https, with what a test needs to point a client at it. */
export async function startHttpsEmulator(seed: number): Promise<HttpsEmulator> {
  const emulator = await startEmulator({ seed, https: true });
  const ca = emulator.tls!.ca;
  const agent = new Agent({ connect: { ca } });
  const trusted = (url: string, init?: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>;
  return {
    emulator, ca,
    port: Number(new URL(emulator.url).port),
    lookup: emulator.lookup,
    accountHost: new URL(emulator.accountUrl()).hostname,
    fetch: trusted,
    control: new Control(emulator.url, trusted),
    close: async () => { await emulator.close(); await agent.close(); },
  };
}

/** The emulator's control API (docs/control-api.md), called directly. */
export class Control {
  constructor(private readonly url: string, private readonly fetch: (url: string, init?: RequestInit) => Promise<Response> = globalThis.fetch) {}

  async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
    const res = await this.fetch(`${this.url}/_control${path}`, {
      method,
      ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  }

  /** Acts as the user who clicks Allow: a fresh authorization code. */
  async code(clientId: string): Promise<string> {
    return (await this.call('POST', '/consent', { client_id: clientId, decision: 'allow' })).code as string;
  }

  async advanceClock(seconds: number): Promise<void> {
    await this.call('POST', '/clock', { advance_seconds: seconds });
  }

  /** The pipeline with the most leads, and their ids in ascending order: a filter that spans several pages. */
  async largestPipeline(): Promise<[number, number[]]> {
    const leads: Array<{ id: number; pipeline_id: number }> = (await this.call('GET', '/lists/leads')).records;
    const byPipeline = new Map<number, number[]>();
    for (const l of leads) byPipeline.set(l.pipeline_id, [...(byPipeline.get(l.pipeline_id) ?? []), l.id]);
    const [pipeline, ids] = [...byPipeline].sort((a, b) => b[1].length - a[1].length)[0]!;
    return [pipeline, ids.sort((a, b) => a - b)];
  }
}

/** What both clients must find in the account read with every `with=` value (docs/emulator.md, "The account"). */
export function accountWithEverything(chatAccountId: string): Record<string, unknown> {
  return {
    created_by: expect.any(Number), updated_at: expect.any(Number), updated_by: expect.any(Number), mobile_feature_version: expect.any(Number),
    is_loss_reason_enabled: expect.any(Boolean), is_helpbot_enabled: expect.any(Boolean), contact_name_display_order: expect.any(Number),
    amojo_id: chatAccountId, version: expect.any(Number), drive_url: expect.any(String), is_api_filter_enabled: true, entity_names: expect.any(Object),
    _embedded: { amojo_rights: expect.any(Object), users_groups: expect.any(Array), task_types: expect.any(Array), datetime_settings: expect.any(Object) },
  };
}
