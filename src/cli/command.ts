/**
 * How a command of `conformance` is declared: its flags on a commander Command, one-line summary, examples, and an
 * action that returns the exit code (docs/design.md §3). Commander parses, prints --help and names mistaken flags;
 * main.ts maps what goes wrong to the exit codes.
 */
import { Command } from 'commander';
import { refuseFlagLikeValues } from './args.js';

/** Where an action leaves its exit code: commander drops an action's return value. */
export interface Outcome {
  exitCode: number;
}

export interface CommandSpec<Flags> {
  /** The name, with its arguments in commander's notation: `hook-check <url>`, `merge <reports...>`. */
  readonly name: string;
  /** One line, shown in `conformance --help`. */
  readonly summary: string;
  /** A paragraph shown in the command's own --help, when the summary is not enough. */
  readonly description?: string;
  /** What each argument of `name` is, by its bare name (`url`, `reports`). */
  readonly arguments?: Readonly<Record<string, string>>;
  /** Command lines a new user can copy, each with what it does. */
  readonly examples: readonly (readonly [command: string, what: string])[];
  /** Declares the command's flags. */
  readonly flags?: (command: Command) => void;
  /** Runs the command with its parsed flags (camelCased keys) and positional arguments; resolves to the exit code. */
  readonly action: (flags: Flags, args: string[], command: Command) => Promise<number>;
}

/** A command's factory: main.ts calls it with the outcome the action writes its exit code into. */
export type CommandFactory = (outcome: Outcome) => Command;

export function defineCommand<Flags>(spec: CommandSpec<Flags>): CommandFactory {
  return (outcome) => {
    const command = new Command(spec.name.split(' ')[0]!);
    for (const arg of spec.name.split(' ').slice(1)) command.argument(arg, spec.arguments?.[arg.replace(/[<>[\].]/g, '')]);
    command.summary(spec.summary).description(spec.description ?? spec.summary);
    spec.flags?.(command);
    const width = Math.max(...spec.examples.map(([line]) => line.length));
    command.addHelpText('after', `\nExamples:\n${spec.examples.map(([line, what]) => `  $ ${line.padEnd(width)}  # ${what}`).join('\n')}\n`);
    command.action(async (...received: unknown[]) => {
      // commander passes the declared arguments, then the flags, then the command itself
      const args = received.slice(0, -2).flat().filter((a) => a !== undefined).map(String);
      refuseFlagLikeValues(command);
      outcome.exitCode = await spec.action(command.opts<Flags & object>() as Flags, args, command);
    });
    return command;
  };
}
