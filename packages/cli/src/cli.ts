import { exportCommand } from './commands/export.js';
import { listCommand } from './commands/list.js';
import { statusCommand } from './commands/status.js';
import { uploadCommand } from './commands/upload.js';
import { commandContext, type CommandContext } from './context.js';
import type { Environment } from './config.js';
import { isExpected, UsageError } from './errors.js';
import { helpText } from './help.js';
import { parseCommand, type Command } from './options.js';
import type { Output } from './progress.js';

export { parseCommand, type Command } from './options.js';
export { UsageError, ApiError, CliError } from './errors.js';

async function dispatch(command: Command, ctx: CommandContext): Promise<void> {
  switch (command.command) {
    case 'help':
      ctx.stdout.write(helpText(command.topic));
      return;
    case 'upload':
      return uploadCommand(command, ctx);
    case 'status':
      return statusCommand(command, ctx);
    case 'export':
      return exportCommand(command, ctx);
    case 'list':
      return listCommand(command, ctx);
  }
}

/**
 * Runs `frametext <argv...>` and answers its exit code: 0 done, 1 refused by FrameText or failed, 2 a usage mistake.
 * Expected failures are printed as one sentence on `stderr`; only a bug prints a stack.
 */
export async function run(argv: readonly string[], io: { stdout: Output; stderr: Output; env: Environment; onInterrupt?: (hint: string | undefined) => void }): Promise<number> {
  const ctx = commandContext(io);
  try {
    await dispatch(parseCommand(argv), ctx);
    return 0;
  } catch (err) {
    if (!isExpected(err)) throw err;
    io.stderr.write(`frametext: ${err.message}\n`);
    if (err instanceof UsageError) io.stderr.write(`Run frametext ${err.command ? `${err.command} ` : ''}--help for the options.\n`);
    return err.exitCode;
  }
}
