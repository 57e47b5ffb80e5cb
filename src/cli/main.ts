/**
 * The `conformance` command: dispatches to a subcommand and maps errors to the exit codes of docs/design.md §3.
 */
import { authorizeCommand } from './commands/authorize.js';
import { docsCommand, faultsCommand } from './commands/docs.js';
import { emulatorCommand } from './commands/emulator.js';
import { hookCheckCommand } from './commands/hook-check.js';
import { rulesCommand } from './commands/rules.js';
import { mergeCommand, verifyCertificateCommand } from './commands/merge.js';
import { certifyCommand, runCommand } from './commands/run.js';

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  run: runCommand,
  certify: certifyCommand,
  merge: mergeCommand,
  'verify-certificate': verifyCertificateCommand,
  authorize: authorizeCommand,
  emulator: emulatorCommand,
  'hook-check': hookCheckCommand,
  rules: rulesCommand,
  faults: faultsCommand,
  docs: docsCommand,
};

const USAGE = `usage: conformance <command> [flags]

commands:
  run        run the suite and write the reports (--target emulator|remote, --profile quick|full, --only <glob|section>,
             --seed <n>, --runs <n>, --strict, --baseline <report.json>, --out <dir>, --env-file <path>,
             --shard <i/n>, --dry-run)
  certify    run the full profile and write certificate.json when nothing failed or errored (same flags as run)
  merge      join shard reports: conformance merge a/report.json b/report.json [--out dir]
  verify-certificate <certificate.json> [--report report.json]   detect any edit
  authorize  grant access once in a browser and store the token pair (--listen host:port, --token-store path)
  emulator   start the emulator standalone (--host, --port) and print the .env lines for a remote run
  hook-check <url>   check a disconnect-hook receiver: only a genuine hook (signed with CLIENT_ID/CLIENT_SECRET) may be
             accepted; bad signature, foreign client_uuid, each parameter missing must be refused (--account-id n)
  rules      list every rule (--json)
  faults     list the emulator's fault switches and the rules that catch each
  docs       regenerate the generated files of docs/

exit codes: 0 no failed must rule, 1 failures, 2 usage or configuration error, 3 target unreachable
`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`conformance: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  try {
    return await command(args);
  } catch (err) {
    const e = err as Error & { exitCode?: number };
    if (typeof e.exitCode === 'number') {
      process.stderr.write(`conformance ${name}: ${e.message}\n`);
      return e.exitCode;
    }
    process.stderr.write(`conformance ${name}: internal error: ${e.stack ?? String(err)}\n`);
    return 1;
  }
}
