import { SwitchboardError } from '@switchboard/client';
import { Command, CommanderError } from 'commander';
import { describeApiError } from './api.js';
import { registerAuthCommands } from './auth-commands.js';
import { registerDeliveryCommands } from './delivery-commands.js';
import { registerEventsCommands } from './events-commands.js';
import { registerListenCommand } from './listen.js';
import { CliError, createOutput, EXIT, type Output } from './output.js';
import { registerResourceCommands } from './resource-commands.js';
import { registerTriggerCommand } from './trigger.js';
import { registerWebhookCommands } from './webhook-commands.js';

// The `switchboard` CLI (docs/cli.md). Exit codes: 0 done, 1 the API refused or could not be reached, 2 a usage
// error. Errors are one line on stderr: `switchboard: <code>: <message>`.

export function buildProgram(): Command {
  const program = new Command('switchboard')
    .description('Switchboard from the command line: webhooks on your machine (listen), test events, and the API')
    .option('--json', 'print results as JSON (one object per line)')
    .showHelpAfterError('(switchboard <command> --help shows its options)')
    .configureOutput({ outputError: (text, write) => write(text) })
    .exitOverride();
  const out = (): Output => createOutput(Boolean(program.opts().json));
  registerAuthCommands(program, out);
  registerListenCommand(program, out);
  registerTriggerCommand(program, out);
  registerWebhookCommands(program, out);
  registerDeliveryCommands(program, out);
  registerResourceCommands(program, out);
  registerEventsCommands(program, out);
  // Every subcommand reports its errors through the override below, with the program's --json flag.
  const override = (c: Command) => {
    c.exitOverride();
    c.commands.forEach(override);
  };
  override(program);
  return program;
}

export async function run(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here too, with code 0.
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof SwitchboardError) {
      process.stderr.write(`switchboard: ${describeApiError(err)}\n`);
      return EXIT.failed;
    }
    if (err instanceof CliError) {
      process.stderr.write(`switchboard: ${err.message}\n`);
      return err.exitCode;
    }
    process.stderr.write(`switchboard: ${(err as Error).stack ?? String(err)}\n`);
    return EXIT.failed;
  }
}
