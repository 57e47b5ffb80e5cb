/**
 * What a plain HTTP/1.1 keep-alive reverse proxy does with its upstream connections, as a test instrument: each
 * connection is kept open with no idle limit of its own and reused for a later request, across a network hop with
 * latency (a TCP relay that delays every chunk and every close). A server that closes an idle connection itself races
 * that reuse: a request already on its way arrives at a closed socket and gets no answer. `sweep` sends requests on
 * connections idle for a range of durations and counts the ones lost that way.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

/** A TCP hop that delays each direction by `latencyMs`, closes included. */
export class LatencyRelay {
  private constructor(private readonly server: net.Server) {}

  static async start(target: { host: string; port: number }, latencyMs: number): Promise<LatencyRelay> {
    const server = net.createServer((downstream) => {
      const upstream = net.connect(target.port, target.host);
      const forward = (from: net.Socket, to: net.Socket) => {
        from.on('data', (chunk) => { setTimeout(() => { if (!to.destroyed) to.write(chunk); }, latencyMs); });
        from.on('end', () => { setTimeout(() => to.end(), latencyMs); });
        // A reset on one side (data written to a socket the server had closed) resets the other.
        from.on('error', () => { setTimeout(() => to.destroy(), latencyMs); });
        from.on('close', () => { setTimeout(() => to.destroy(), latencyMs); });
      };
      forward(downstream, upstream);
      forward(upstream, downstream);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new LatencyRelay(server);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A pool that keeps every idle connection with no limit, whatever `Keep-Alive: timeout` the server announces, as
 * nginx and most reverse proxies do. (Node's own Agent closes a connection a second before an announced timeout,
 * which hides the race from it; `keepSocketAlive` is its documented hook for subclasses.)
 */
class UnlimitedIdleAgent extends http.Agent {
  constructor() {
    super({ keepAlive: true, maxSockets: 1 });
  }

  override keepSocketAlive(socket: Duplex): boolean {
    (socket as net.Socket).setKeepAlive(true, 1_000);
    (socket as net.Socket).unref();
    return true;
  }
}

export interface Answer {
  readonly ok: boolean;
  readonly status?: number;
  readonly keepAlive?: string;
  readonly error?: string;
}

function get(agent: http.Agent, port: number, path: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ok: true, status: res.statusCode!, ...(typeof res.headers['keep-alive'] === 'string' && { keepAlive: res.headers['keep-alive'] }) }));
      res.on('error', (err) => resolve({ ok: false, error: (err as NodeJS.ErrnoException).code ?? err.message }));
    });
    req.on('error', (err) => resolve({ ok: false, error: (err as NodeJS.ErrnoException).code ?? err.message }));
  });
}

export interface SweepOptions {
  /** The relay in front of the server. */
  readonly port: number;
  readonly path: string;
  /** Idle durations tried, one connection each: from, to (inclusive), step. */
  readonly idleMs: { readonly from: number; readonly to: number; readonly step: number };
}

export interface SweepResult {
  readonly sent: number;
  /** Requests sent on a reused connection that got no answer, by idle duration. */
  readonly lost: ReadonlyArray<{ readonly idleMs: number; readonly error: string }>;
}

/**
 * One connection per idle duration: a first request opens it, the second goes out on it once it has been idle that
 * long (measured from the end of the first answer, as a proxy's pool sees it). All connections idle in parallel, so
 * a sweep costs about its longest idle duration.
 */
export async function sweep(options: SweepOptions): Promise<SweepResult> {
  const idles: number[] = [];
  for (let d = options.idleMs.from; d <= options.idleMs.to; d += options.idleMs.step) idles.push(d);
  const lost: Array<{ idleMs: number; error: string }> = [];
  await Promise.all(idles.map(async (idleMs) => {
    const agent = new UnlimitedIdleAgent();
    try {
      const first = await get(agent, options.port, options.path);
      if (!first.ok) throw new Error(`the connection could not be opened: ${first.error}`);
      await sleep(idleMs);
      const second = await get(agent, options.port, options.path);
      if (!second.ok) lost.push({ idleMs, error: second.error ?? 'no answer' });
    } finally {
      agent.destroy();
    }
  }));
  return { sent: idles.length, lost: lost.sort((a, b) => a.idleMs - b.idleMs) };
}

/** The idle timeout a response announces (`Keep-Alive: timeout=N`), in milliseconds. */
export async function announcedIdleTimeoutMs(port: number, path: string): Promise<number | undefined> {
  const agent = new http.Agent({ keepAlive: true });
  try {
    const answer = await get(agent, port, path);
    const m = /(?:^|,)\s*timeout=(\d+)/i.exec(answer.keepAlive ?? '');
    return m ? Number(m[1]) * 1000 : undefined;
  } finally {
    agent.destroy();
  }
}
