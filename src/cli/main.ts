/**
 * The `conformance` command: commander parses the command line (help, version, did-you-mean for mistaken flags and
 * commands); this maps every way it can end to the exit codes of docs/design.md §3 with one clean line on stderr.
 */
import { Command, CommanderError } from 'commander';
import { KIT_PACKAGE } from '../paths.js';
import type { CommandFactory, Outcome } from './command.js';
import { authorizeCommand } from './commands/authorize.js';
import { certifyCommand } from './commands/certify.js';
import { cleanCommand } from './commands/clean.js';
import { compareCommand } from './commands/compare.js';
import { docsCommand } from './commands/docs.js';
import { emulatorCommand } from './commands/emulator.js';
import { faultsCommand } from './commands/faults.js';
import { variationsCommand } from './commands/variations.js';
import { hookCheckCommand } from './commands/hook-check.js';
import { keygenCommand } from './commands/keygen.js';
import { mergeCommand } from './commands/merge.js';
import { openApiCommand } from './commands/openapi.js';
import { rulesCommand } from './commands/rules.js';
import { runCommand } from './commands/run.js';
import { verifyCertificateCommand } from './commands/verify-certificate.js';


export const COMMANDS: readonly CommandFactory[] = [
  runCommand, certifyCommand, compareCommand, mergeCommand, verifyCertificateCommand, keygenCommand, authorizeCommand, emulatorCommand, hookCheckCommand,
  rulesCommand, faultsCommand, variationsCommand, openApiCommand, docsCommand, cleanCommand,
];

const EPILOGUE = `
Exit codes: 0 no failed \`must\` rule (with --strict, no failed \`should\`; with --baseline, no regression),
  1 failures (with --baseline, regressions), 2 a usage or configuration error (the message names the flag or key),
  3 the target cannot be reached or is not the service, 4 nothing failed but a \`must\` rule was left unjudged
  (--allow-unjudged hides it), 130 interrupted (SIGINT), 143 stopped (SIGTERM): the reports of what ran are written.

Examples:
  $ conformance run                  # the whole suite against the embedded emulator; reports in reports/
  $ conformance run --help           # every flag of a command
  $ npm run conformance -- --seed 1  # the same as: conformance run --seed 1
`;

/** Commander's ways of ending after printing help or the version: not errors, except help shown for a missing command. */
const HELP_CODES = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

export interface MainIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const PROCESS_IO: MainIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

function program(outcome: Outcome, io: MainIo): Command {
  const root = new Command('conformance')
    .description('Conformance kit: runs the rules of specs/service.md against the embedded emulator or a remote server.')
    .version(KIT_PACKAGE.version, '-V, --version', 'print the kit\'s version')
    .exitOverride()
    // main writes the one error line itself, so commander's own error output is turned off
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: () => {} })
    .showSuggestionAfterError(true)
    // every command has options: listing "[options]" on each line only takes room from the summaries
    .configureHelp({ subcommandTerm: (c) => `${c.name()} ${c.usage().replace('[options]', '')}`.replace(/\s+/g, ' ').trim() })
    .addHelpText('after', EPILOGUE);
  for (const make of COMMANDS) root.addCommand(make(outcome).copyInheritedSettings(root));
  return root;
}

/** Commander's message as one line: no "error:" prefix, its suggestion on the same line. */
export function oneLine(message: string): string {
  return message
    .replace(/^error: /, '')
    .replace(/\s*\(Did you mean (?:one of )?(.+?)\?\)\s*$/s, (_m, names: string) => `; did you mean ${names.split(', ').map((n) => `'${n}'`).join(' or ')}?`)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

export async function main(argv: string[], io: MainIo = PROCESS_IO): Promise<number> {
  const outcome: Outcome = { exitCode: 0 };
  const root = program(outcome, io);
  const name = root.commands.find((c) => c.name() === argv[0])?.name();
  const prefix = name ? `conformance ${name}: ` : 'conformance: ';
  try {
    await root.parseAsync(argv, { from: 'user' });
    return outcome.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (HELP_CODES.has(err.code)) return err.exitCode === 0 ? 0 : 2;
      io.stderr(`${prefix}${oneLine(err.message)}\n`);
      return 2;
    }
    const e = err as Error & { exitCode?: number };
    if (typeof e.exitCode === 'number') {
      io.stderr(`${prefix}${e.message}\n`);
      return e.exitCode;
    }
    io.stderr(`${prefix}internal error: ${e.stack ?? String(err)}\n`);
    return 1;
  }
}
