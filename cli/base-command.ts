import { Command, Errors } from '@oclif/core';
import { ConfigError } from '../src/config.ts';
import { AppError } from '../src/errors.ts';

/** Exit codes: 0 ok, 1 any rejected value or failure, 2 command-line syntax, 4 not signed in. */
export const EXIT = { failure: 1, usage: 2, auth: 4 } as const;

/** A failure the user can act on: shown as one line, no stack trace. */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
  }
}

/**
 * Every command returns its data from `run()`: with `--json` oclif prints exactly that,
 * otherwise the command prints a human summary with `this.log`.
 */
export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true;

  protected override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    // oclif's own parse errors (unknown flag, missing argument) keep exit code 2.
    if (error instanceof Errors.CLIError && error.oclif?.exit === 2) return super.catch(error);
    if (error instanceof CliFailure) this.fail(error.message, error.exitCode);
    if (error instanceof AppError || error instanceof ConfigError) this.fail(error.message, EXIT.failure);
    if (error instanceof Errors.ExitError) throw error;
    return super.catch(error);
  }

  protected fail(message: string, exitCode: number): never {
    if (this.jsonEnabled()) {
      process.stderr.write(`${JSON.stringify({ error: { message } })}\n`);
    } else {
      process.stderr.write(`Error: ${message}\n`);
    }
    this.exit(exitCode);
  }
}
