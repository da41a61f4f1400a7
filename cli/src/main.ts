import { Command, CommanderError } from 'commander';
import { authCommands } from './commands/auth';
import { callCommands } from './commands/call';
import { catalogCommands } from './commands/catalog';
import { installCommands } from './commands/install';
import { vendorCommands } from './commands/vendor';
import { walletCommands } from './commands/wallet';
import { ApiError, CliError, EXIT } from './errors';
import { colors, jsonText, write } from './output';
import { packageVersion } from './version';

export function buildProgram(): Command {
  const program = new Command('svc')
    .description(
      'The svc marketplace from a terminal. API: SVC_API_URL (default http://localhost:3000); token: SVC_TOKEN, else `svc login`.',
    )
    .version(packageVersion())
    .showHelpAfterError('(run with --help for usage)')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeOut: (text) => write('stdout', text), writeErr: (text) => write('stderr', text) });
  authCommands(program);
  catalogCommands(program);
  installCommands(program);
  vendorCommands(program);
  walletCommands(program);
  callCommands(program);
  // Sub-commands inherit the exit override, so usage errors reach `main` as exit code 2.
  for (const command of program.commands) command.exitOverride();
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  const wantsJson = argv.includes('--json');
  try {
    await program.parseAsync(argv);
    process.exitCode = EXIT.ok;
  } catch (error) {
    process.exitCode = report(error, wantsJson);
  }
}

function report(error: unknown, json: boolean): number {
  if (error instanceof CommanderError) {
    // help and --version "fail" with exit code 0
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof CliError) {
    if (json) write('stdout', jsonText({ error: error.message, ...error.body }) + '\n');
    write('stderr', `${colors.red('error:')} ${error.message}\n`);
    if (error instanceof ApiError && error.status >= 500) write('stderr', 'The server failed; try again later.\n');
    return error.exitCode;
  }
  write('stderr', `${colors.red('error:')} ${(error as Error)?.stack ?? String(error)}\n`);
  return EXIT.failure;
}
