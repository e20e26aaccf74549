#!/usr/bin/env node
// The `frametext` command: runs the CLI on this process's arguments, streams and environment.
import { run } from './cli.js';
import { readEnvironment } from './config.js';

let interruptHint: string | undefined;
process.on('SIGINT', () => {
  // A progress line may be open on the terminal: start on a new line.
  process.stderr.write(`\n${interruptHint ?? 'Stopped.'}\n`);
  process.exit(130);
});

run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: readEnvironment(), onInterrupt: (hint) => (interruptHint = hint) }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`frametext: unexpected error, please report it: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
