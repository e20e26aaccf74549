import { FrameTextApi } from './api.js';
import type { Environment } from './config.js';
import type { Connection } from './options.js';
import type { Output } from './progress.js';

/** What a command runs with: where to write, the environment's settings, and what to say if Ctrl-C stops it. */
export interface CommandContext {
  /** The command's result: an upload id, a table, an export's bytes. */
  stdout: Output;
  /** Progress and messages for the person. */
  stderr: Output;
  env: Environment;
  connect(given: Connection): FrameTextApi;
  /** Sets the sentence printed if Ctrl-C stops the command from now on (how to pick up again); undefined for none. */
  onInterrupt(hint: string | undefined): void;
}

export function commandContext(io: { stdout: Output; stderr: Output; env: Environment; onInterrupt?: (hint: string | undefined) => void }): CommandContext {
  return {
    stdout: io.stdout,
    stderr: io.stderr,
    env: io.env,
    connect: (given) => FrameTextApi.connect(given, io.env),
    onInterrupt: io.onInterrupt ?? (() => undefined),
  };
}
