/**
 * A sandbox that keeps itself (issue 40, `conformance emulator --state <path>`, `startSandbox({ state })`): the world
 * (subdomains, ids, secrets), the issued credentials, the installations, the registered channels, the records of the
 * lists, the own ports and the printed settings are written to one file and loaded at the next start, so a client's
 * settings stay valid across restarts. What is loaded is the baseline: a control reset returns to it.
 *
 * Not kept: chats and messages (a reset drops them too), the clock (it starts at the machine's time again), faults and
 * variations (the command line names them at each start).
 *
 * The file is JSON (Maps and Sets written as `{"$map": [...]}` / `{"$set": [...]}`), mode 0600 (it holds secrets),
 * rewritten after each request that may change something and at close, through a temporary file and a rename: a crash
 * never leaves half a file. Tokens stay verifiable because the public key of each process that signed one is kept
 * (never a private key).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { chatState } from './chat/state.js';
import type { EmulatorContext } from './context.js';
import type { DataSet } from './lists/data.js';
import { listStore } from './lists/store.js';
import { lifecycle } from './oauth/lifecycle.js';
import { publicSigningKey, trustedPublicKeys, trustPublicKeys, type PublicKeyJwk } from './oauth/jwt.js';
import type { CredentialSnapshot } from './state.js';
import type { World } from './world.js';

const FORMAT = 'conformance-kit-sandbox-state';
const VERSION = 1;
/** How long a write waits for more changes: a burst of requests (a whole run) costs a few writes, not one each. */
const WRITE_DELAY_MS = 250;

export interface KeptState {
  readonly format: typeof FORMAT;
  readonly version: number;
  readonly savedAt: string;
  readonly world: World;
  /** The accounts' and the chat interface's own ports (by subdomain and `chat`), asked for again at the next start. */
  readonly ownPorts: Readonly<Record<string, number>>;
  /** The settings made through the control API at the first start (LONG_LIVED_TOKEN, CHANNEL_ID_2, ...). */
  readonly settings?: Readonly<Record<string, string>>;
  readonly credentials: CredentialSnapshot;
  readonly installations: readonly string[];
  readonly retiredSecrets: ReadonlyArray<readonly [string, string]>;
  readonly chat: { readonly channels: Map<string, unknown>; readonly accounts: Map<string, unknown> };
  readonly lists: DataSet;
  readonly secrets: readonly string[];
  readonly publicKeys: readonly PublicKeyJwk[];
}

/** A state file that cannot be read as one: the caller names the option. */
export class StateFileError extends Error {
  readonly code = 'ERR_EMULATOR_STATE';
}

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Map) return { $map: [...value] };
  if (value instanceof Set) return { $set: [...value] };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as { $map?: unknown; $set?: unknown };
    if (Array.isArray(o.$map) && Object.keys(o).length === 1) return new Map(o.$map as [unknown, unknown][]);
    if (Array.isArray(o.$set) && Object.keys(o).length === 1) return new Set(o.$set);
  }
  return value;
}

/** The state kept at `path`, or undefined when there is no file yet (the first start makes it). */
export async function readKeptState(path: string): Promise<KeptState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`cannot read ${path}: ${(err as Error).message}`);
  }
  let state: KeptState;
  try {
    state = JSON.parse(text, reviver) as KeptState;
  } catch (err) {
    throw new StateFileError(`${path} is not JSON: ${(err as Error).message}`);
  }
  if (state?.format !== FORMAT) throw new StateFileError(`${path} is not a sandbox state file (no "format": "${FORMAT}")`);
  if (state.version !== VERSION) throw new StateFileError(`${path} has state version ${state.version}; this kit reads version ${VERSION}`);
  return state;
}

/** Puts a kept state into a freshly built instance (whose world is the kept one) and marks it as the baseline. */
export function applyKeptState(ctx: EmulatorContext, state: KeptState): void {
  trustPublicKeys(state.publicKeys);
  ctx.store.restore(state.credentials);
  const life = lifecycle(ctx);
  life.installations.clear();
  for (const k of state.installations) life.installations.add(k);
  life.retiredSecrets.clear();
  for (const [k, v] of state.retiredSecrets) life.retiredSecrets.set(k, v);
  const chat = chatState(ctx);
  for (const [id, channel] of state.chat.channels) chat.channels.set(id, channel as never);
  for (const [id, account] of state.chat.accounts) chat.accounts.set(id, account as never);
  listStore(ctx).load(state.lists);
  for (const s of state.secrets) ctx.secrets.add(s);
  ctx.markBaseline();
}

async function captureState(ctx: EmulatorContext, ownPorts: Readonly<Record<string, number>>, settings: Readonly<Record<string, string>> | undefined, earlierKeys: readonly PublicKeyJwk[]): Promise<KeptState> {
  const life = lifecycle(ctx);
  const chat = chatState(ctx);
  const own = await publicSigningKey();
  return {
    format: FORMAT,
    version: VERSION,
    savedAt: new Date().toISOString(),
    world: ctx.world,
    ownPorts,
    ...(settings && { settings }),
    credentials: ctx.store.snapshot(),
    installations: [...life.installations],
    retiredSecrets: [...life.retiredSecrets],
    chat: { channels: chat.channels, accounts: chat.accounts },
    lists: listStore(ctx).data,
    secrets: ctx.secrets.list(),
    publicKeys: [...earlierKeys.filter((k) => k.kid !== own.kid && trustedPublicKeys().includes(k.kid)), own],
  };
}

/** Writes the state of one instance to its file: on request (debounced, one write at a time) and at close. */
export class StateKeeper {
  #settings: Readonly<Record<string, string>> | undefined;
  #ownPorts: Readonly<Record<string, number>> = {};
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #failure: Error | undefined;

  constructor(private readonly ctx: EmulatorContext, readonly path: string, private readonly loaded: KeptState | undefined) {
    this.#settings = loaded?.settings;
  }

  /** The settings kept from an earlier start, if any. */
  get settings(): Readonly<Record<string, string>> | undefined {
    return this.#settings;
  }

  setOwnPorts(ports: Readonly<Record<string, number>>): void {
    this.#ownPorts = ports;
  }

  /** The printed settings become part of the state (written at once). */
  async keepSettings(settings: Readonly<Record<string, string>>): Promise<void> {
    this.#settings = settings;
    await this.flush();
  }

  /** Something may have changed: written shortly, once for a burst of requests. */
  changed(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => { this.#timer = undefined; void this.#write(); }, WRITE_DELAY_MS);
    this.#timer.unref();
  }

  /** Writes now (and waits for a write under way); throws the last write's failure. */
  async flush(): Promise<void> {
    if (this.#timer) { clearTimeout(this.#timer); this.#timer = undefined; }
    await this.#write();
    if (this.#failure) throw this.#failure;
  }

  #write(): Promise<void> {
    this.#writing = this.#writing.then(async () => {
      const state = await captureState(this.ctx, this.#ownPorts, this.#settings, this.loaded?.publicKeys ?? []);
      const tmp = `${this.path}.${randomUUID()}.tmp`;
      try {
        await mkdir(dirname(this.path), { recursive: true });
        await writeFile(tmp, `${JSON.stringify(state, replacer)}\n`, { mode: 0o600 });
        await rename(tmp, this.path);
        this.#failure = undefined;
      } catch (err) {
        await rm(tmp, { force: true });
        this.#failure = new StateFileError(`cannot write ${this.path}: ${(err as Error).message}`);
      }
    });
    return this.#writing;
  }
}
