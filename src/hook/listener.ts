/**
 * The kit's receiver of disconnect hooks (capability `hook`): a small HTTP server on a loopback or HOOK_LISTEN
 * address that records every request and answers 200. Rules wait for the next hook with a bounded timeout.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly receivedAt: number;
}

interface Waiter {
  readonly match: (h: ReceivedHook) => boolean;
  readonly resolve: (h: ReceivedHook | undefined) => void;
  readonly timer: NodeJS.Timeout;
}

export class HookListener {
  readonly #server: Server;
  readonly #pending: ReceivedHook[] = [];
  readonly #waiters: Waiter[] = [];
  readonly #path = `/disconnect-hook/${randomBytes(6).toString('hex')}`;
  #url = '';

  private constructor() {
    this.#server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://listener');
      if (url.pathname === this.#path) this.#deliver({ method: req.method ?? '', path: url.pathname, query: url.searchParams, receivedAt: Date.now() });
      req.resume();
      res.writeHead(url.pathname === this.#path ? 200 : 404, { 'content-type': 'text/plain' }).end(url.pathname === this.#path ? 'ok' : 'not found');
    });
  }

  /** Listens on `listen` (host:port; port 0 picks a free one), default an ephemeral loopback port. */
  static async start(listen = '127.0.0.1:0'): Promise<HookListener> {
    const l = new HookListener();
    const i = listen.lastIndexOf(':');
    const host = listen.slice(0, i).replace(/^\[|\]$/g, '');
    const port = Number(listen.slice(i + 1));
    await new Promise<void>((resolve, reject) => {
      l.#server.once('error', reject);
      l.#server.listen(port, host, () => resolve());
    });
    const address = l.#server.address() as AddressInfo;
    const shownHost = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
    l.#url = `http://${shownHost}:${address.port}${l.#path}`;
    return l;
  }

  /** The address to register as the integration's disconnect hook URL. */
  get url(): string {
    return this.#url;
  }

  #deliver(hook: ReceivedHook): void {
    const i = this.#waiters.findIndex((w) => w.match(hook));
    if (i < 0) {
      this.#pending.push(hook);
      return;
    }
    const [w] = this.#waiters.splice(i, 1);
    clearTimeout(w!.timer);
    w!.resolve(hook);
  }

  /** The oldest unclaimed hook that matches, waiting up to `timeoutMs`; undefined when none came. */
  next(match: (h: ReceivedHook) => boolean = () => true, timeoutMs = 2_000): Promise<ReceivedHook | undefined> {
    const i = this.#pending.findIndex(match);
    if (i >= 0) return Promise.resolve(this.#pending.splice(i, 1)[0]);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        match,
        resolve,
        timer: setTimeout(() => {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          resolve(undefined);
        }, timeoutMs),
      };
      this.#waiters.push(waiter);
    });
  }

  async close(): Promise<void> {
    for (const w of this.#waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve(undefined);
    }
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
