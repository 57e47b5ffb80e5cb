/**
 * A TLS-terminating reverse proxy in front of the emulator, as a public client meets the live service: https only,
 * a certificate for 127.0.0.1 made for the run (self-signed, trusted only by the clients the test hands it to), and
 * `X-Forwarded-Proto: https` / `X-Forwarded-Host` upstream so the emulator's links and tokens name what the client
 * called. Also a small control-API caller: the client tests mint authorization codes and read ground truth with it.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import type { IncomingHttpHeaders } from 'node:http';
import selfsigned from 'selfsigned';
import { Pool } from 'undici';
import { expect } from 'vitest';

export interface TlsFront {
  /** `127.0.0.1:<port>`: what an https-only client is given as its base domain. */
  readonly host: string;
  readonly port: number;
  /** The certificate in PEM, to trust through a client's agent. */
  readonly ca: string;
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) stay on their own hop. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

function forwardable(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) out[name] = value;
  return out;
}

export async function startTlsFront(upstreamUrl: string): Promise<TlsFront> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048, algorithm: 'sha256', notAfterDate: new Date(Date.now() + 86_400_000),
  });
  const upstream = new Pool(upstreamUrl, { connections: 4 });
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const headers = { ...forwardable(req.headers), 'x-forwarded-proto': 'https', 'x-forwarded-host': req.headers.host ?? '' };
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    upstream.request({ method: req.method as 'GET', path: req.url ?? '/', headers, ...(hasBody && { body: req }) })
      .then(async (answer) => {
        res.writeHead(answer.statusCode, forwardable(answer.headers));
        await pipeline(answer.body, res);
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('bad gateway');
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    port,
    ca: pems.cert,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await upstream.close();
    },
  };
}

/** The emulator's control API (docs/control-api.md), called directly. */
export class Control {
  constructor(private readonly url: string) {}

  async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${this.url}/_control${path}`, {
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
