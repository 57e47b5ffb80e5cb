/**
 * `conformance emulator`: the emulator standalone, printing the .env lines a remote run needs.
 * Secrets are printed in full only when stdout is not a terminal (redirected into a .env file); on a
 * terminal they are masked, so that nothing on screen or in a scroll-back holds them.
 */
import { isFaultName } from '../../emulator/faults.js';
import { startEmulator } from '../../emulator/index.js';
import { SECRET_KEYS } from '../../targets/config.js';
import { maskSecret } from '../../secrets/mask.js';
import { collect } from '../args.js';
import { defineCommand } from '../command.js';
import { ConfigError } from '../../errors.js';
import { integerSetting } from '../settings.js';

interface EmulatorFlags {
  readonly host?: string;
  readonly port?: string;
  readonly fault?: readonly string[];
}

export const emulatorCommand = defineCommand<EmulatorFlags>({
  name: 'emulator',
  summary: 'standalone emulator; prints .env lines',
  description: 'Starts the reference emulator with its control API and prints, as KEY=value lines, the URLs and '
    + 'credentials a remote run needs. Secrets are printed in full only when stdout is redirected (into a .env file); '
    + 'on a terminal they are masked. Runs until Ctrl-C.',
  examples: [
    ['conformance emulator > .env &', 'then: conformance run --target remote'],
    ['conformance emulator --port 0 --fault token-type-mac', 'a faulty emulator on a free port (see `conformance faults`)'],
  ],
  flags: (command) => command
    .option('--host <host>', 'address to listen on (default: 127.0.0.1)')
    .option('--port <port>', 'port to listen on, 0 for a free one (default: 4010)')
    .option('--fault <name>', 'switch on a fault, repeatable (see `conformance faults`)', collect),
  action: serve,
});

async function serve(values: EmulatorFlags): Promise<number> {
  const host = values.host ?? '127.0.0.1';
  const port = integerSetting('--port', values.port, { min: 0 }) ?? 4010;
  if (port > 65535) throw new ConfigError('--port', `must be at most 65535, got "${port}"`);
  const unknown = (values.fault ?? []).filter((f) => !isFaultName(f));
  if (unknown.length > 0) throw new ConfigError('--fault', `names no fault: ${unknown.join(', ')} (see \`conformance faults\`)`);
  const emulator = await startEmulator({ host, port, faults: values.fault ?? [] });
  const revealSecrets = !process.stdout.isTTY;
  for (const [key, value] of Object.entries(emulator.env())) {
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
