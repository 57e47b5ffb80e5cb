/**
 * `conformance emulator`: the emulator standalone, printing the .env lines a remote run needs.
 * Secrets are printed in full only when stdout is not a terminal (redirected into a .env file); on a
 * terminal they are masked, so that nothing on screen or in a scroll-back holds them.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isFaultName } from '../../emulator/faults.js';
import { SERVER_SHAPES } from '../../emulator/shape.js';
import { isVariationName } from '../../emulator/variations.js';
import { keptSettings } from '../../needs/emulator-settings.js';
import { SECRET_KEYS } from '../../needs/settings.js';
import { maskSecret } from '../../secrets/mask.js';
import { collect, oneOf } from '../args.js';
import { defineCommand } from '../command.js';
import { ConfigError } from '../../errors.js';
import { integerSetting } from '../settings.js';

interface EmulatorFlags {
  readonly shape?: string;
  readonly acceptMachineTime?: boolean;
  readonly tls?: boolean;
  readonly tlsDir?: string;
  readonly tlsHost?: readonly string[];
  readonly host?: string;
  readonly port?: string;
  readonly fault?: readonly string[];
  readonly variation?: readonly string[];
  readonly accountDomain?: string;
  readonly state?: string;
}

/** A DNS name of labels joined by dots (`amocrm.ru`, `crm.test`). */
const DOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

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
    ['conformance emulator --tls > .env', 'https, with a CA made once and reused; its path is printed as CA_FILE, which the kit trusts'],
  ],
  flags: (command) => command
    .option('--host <host>', 'address to listen on (default: 127.0.0.1)')
    .option('--port <port>', 'port to listen on, 0 for a free one (default: 4010)')
    .option('--fault <name>', 'switch on a fault, repeatable (see `conformance faults`)', collect)
    .option('--variation <name>', 'switch on an allowed variation, repeatable (see `conformance variations`)', collect)
    .option('--shape <shape>', 'deployed (default): each account and the chat interface at an origin of its own, as the service is deployed (a port of its own each, reached as printed; by name with --account-domain); one-origin: every interface at one address (docs/emulator.md "Shapes")')
    .option('--account-domain <name>', 'serve the accounts as <subdomain>.<name> and the chat interface as amojo.<name> on --port (for a client that hard-codes the service\'s domain); prints HOST_RESOLVE and the /etc/hosts line (docs/emulator.md "Shapes")')
    .option('--state <path>', 'keep subdomains, ids, secrets and records in this file across restarts (made at the first start); a reset returns to the state loaded')
    .option('--tls', 'serve https with a certificate signed by a CA made for the sandbox; each account also at https://<subdomain>.sandbox.localhost:<port>')
    .option('--tls-dir <dir>', `where the CA is kept and reused across starts (default: ${defaultTlsDir()})`)
    .option('--tls-host <name>', 'another host name or address the certificate covers (a container\'s name, a LAN address), repeatable', collect)
    .option('--accept-machine-time', 'a chat Date current by the machine\'s clock is accepted even after the emulator clock was moved (as startSandbox does)'),
  action: serve,
});

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
  for (const [flag, value] of [['--tls-dir', values.tlsDir], ['--tls-host', values.tlsHost]] as const) {
    if (value !== undefined && !values.tls) throw new ConfigError(flag, 'is only read with --tls');
  }
  const shape = oneOf('--shape', values.shape, SERVER_SHAPES, 'deployed');
  if (values.accountDomain !== undefined && !DOMAIN.test(values.accountDomain)) throw new ConfigError('--account-domain', `must be a DNS name of two labels or more, got "${values.accountDomain}"`);
  if (values.accountDomain !== undefined && shape !== 'deployed') throw new ConfigError('--account-domain', 'is only read with --shape deployed');
  const emulator = await startEmulator({
    host, port, shape,
    ...(values.accountDomain !== undefined && { accountDomain: values.accountDomain.toLowerCase() }),
    ...(values.state !== undefined && { state: values.state }),
    faults: values.fault ?? [], variations: values.variation ?? [], acceptMachineTime: values.acceptMachineTime ?? false,
    ...(values.tls && { https: { dir: values.tlsDir ?? defaultTlsDir(), hosts: values.tlsHost ?? [] } }),
  }).catch((err: unknown) => {
    // A state file that is not one is a bad setting, named by its option.
    if ((err as { code?: string }).code === 'ERR_EMULATOR_STATE') throw new ConfigError('--state', (err as Error).message);
    throw listenError(err, host, port);
  });
  const revealSecrets = !process.stdout.isTTY;
  for (const [key, value] of Object.entries(await keptSettings(emulator))) {
    const shown = revealSecrets || !SECRET_KEYS.includes(key) ? value : maskSecret(value);
    process.stdout.write(`${key}=${shown}\n`);
  }
  const hostsLine = emulator.hostsLine();
  if (hostsLine) {
    process.stderr.write(`the accounts and the chat interface by name: HOST_RESOLVE above (the kit; node --import conformance-kit/resolve app.js), or in /etc/hosts:\n  ${hostsLine}\n`);
  }
  process.stderr.write(`emulator listening on ${emulator.url}${revealSecrets ? '' : ' (secrets masked on a terminal: run `conformance emulator > .env` to save them)'}; Ctrl-C stops it\n`);
  if (emulator.tls) {
    process.stderr.write(`CA certificate: ${emulator.tls.caFile} (CA_FILE in the settings: the kit trusts it)\n`
      + `  other Node:  NODE_EXTRA_CA_CERTS=${emulator.tls.caFile} node ...   curl: curl --cacert ${emulator.tls.caFile} ...\n`
      + `  each account also at ${emulator.accountUrl('<subdomain>')} (main: ${emulator.accountUrl()})\n`);
  }
  await new Promise<void>((done) => {
    const stop = () => done();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await emulator.close();
  return 0;
}

/** A port the emulator cannot listen on is a setting to change (exit 2, one line), not a crash. */
function listenError(err: unknown, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new ConfigError('--port', `${port} on ${host} is in use (another emulator or program listens there): choose another port, or --port 0 for a free one`);
  if (code === 'EACCES') return new ConfigError('--port', `${port} on ${host} needs privileges this process lacks: choose a port from 1024 on, or --port 0 for a free one`);
  if (code === 'EADDRNOTAVAIL') return new ConfigError('--host', `${host} is no address of this machine to listen on`);
  return err;
}

/** A CA trusted once stays trusted: it is kept in the user's cache, not made anew at every start. */
function defaultTlsDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'conformance-kit', 'tls');
}
