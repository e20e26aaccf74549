import type { CommandName } from './help.js';

/**
 * The failures the CLI expects, each with its exit code; they are printed as their message alone, never with a
 * stack. Anything else thrown is a bug and is printed in full.
 */

/** The command line needs fixing (exit 2); the message says what to change. */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(
    message: string,
    /** The command whose --help to point to. */
    readonly command?: CommandName,
  ) {
    super(message);
  }
}

/** FrameText answered with an error (exit 1); `message` is the API's own sentence. */
export class ApiError extends Error {
  readonly exitCode = 1;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Anything else that stops a command, with a sentence for the person (exit 1): no connection, a failed upload. */
export class CliError extends Error {
  readonly exitCode = 1;
}

/** Ctrl-C (exit 130, as shells report a SIGINT); the message says how to pick up again. */
export class Interrupted extends Error {
  readonly exitCode = 130;
}

export type ExpectedError = UsageError | ApiError | CliError | Interrupted;

export function isExpected(err: unknown): err is ExpectedError {
  return err instanceof UsageError || err instanceof ApiError || err instanceof CliError || err instanceof Interrupted;
}
