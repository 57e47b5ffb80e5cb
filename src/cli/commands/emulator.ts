/**
 * `conformance emulator`: the emulator standalone, printing the .env lines a remote run needs.
 * Secrets are printed in full only when stdout is not a terminal (redirected into a .env file); on a
 * terminal they are masked, so that nothing on screen or in a scroll-back holds them.
 */
import { startEmulator } from '../../emulator/index.js';
import { SECRET_KEYS } from '../../targets/config.js';
import { maskSecret } from '../../secrets/mask.js';
import { parseFlags } from '../args.js';
import { UsageError } from '../../errors.js';
import { integerSetting } from '../settings.js';

export async function emulatorCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, { host: { type: 'string' }, port: { type: 'string' }, fault: { type: 'string', multiple: true } }, 'emulator');
  const host = values.host ?? '127.0.0.1';
  const port = integerSetting('--port', values.port, { min: 0 }) ?? 4010;
  if (port > 65535) throw new UsageError(`--port must be at most 65535; got ${port}`);
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
