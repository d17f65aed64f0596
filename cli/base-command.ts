import { Command, Errors } from '@oclif/core';
import { ConfigError } from '../src/config.ts';
import { DataDirError } from '../src/data-dir/errors.ts';
import { faultOf } from '../src/db/faults.ts';
import { describeProblem } from '../src/definition/problems.ts';
import type { Problem } from '../src/definition/types.ts';
import { AppError } from '../src/errors.ts';
import { printableLines } from './lib/printable.ts';

/** Exit codes: 0 ok, 1 any rejected value or failure, 2 command-line syntax, 4 not signed in. */
export const EXIT = { failure: 1, usage: 2, auth: 4 } as const;

/** `--json` errors always carry a `code`; these stand in when a failure names none. */
const FALLBACK_CODES: Readonly<Record<number, string>> = {
  [EXIT.failure]: 'failed',
  [EXIT.usage]: 'usage',
  [EXIT.auth]: 'not_signed_in',
};

/**
 * A failure the user can act on: shown as one line, no stack trace. `code` is the
 * server's error code when the failure is a server answer (kept for `--json`).
 */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
    readonly code?: string,
    /** The server's `details` (every problem of a refused definition, say), kept for `--json` and shown. */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** A flag value the command cannot use, refused before anything is sent (`--json` code `invalid_flag`). */
export const invalidFlag = (message: string): CliFailure => new CliFailure(message, EXIT.failure, 'invalid_flag');

/**
 * Every command returns its data from `run()`: with `--json` oclif prints exactly that,
 * otherwise the command prints a human summary with `this.log`.
 */
export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true;

  protected override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    if (error instanceof Errors.ExitError) throw error;
    // oclif's own parse errors (unknown flag, missing argument) exit 2. Its default
    // handler would, under --json, dump its internals to stdout and exit 1.
    if (error instanceof Errors.CLIError && error.oclif?.exit === 2) {
      if (!this.jsonEnabled()) return super.catch(error);
      this.fail(error.message.replace(/\s*\n\s*/g, ' ').trim(), EXIT.usage, 'usage');
    }
    if (error instanceof CliFailure) this.fail(error.message, error.exitCode, error.code, error.details);
    if (error instanceof AppError) this.fail(error.message, EXIT.failure, error.code);
    // The database down, hung or on a full disk: what to fix, not a stack trace.
    const fault = faultOf(error);
    if (fault) this.fail(`${fault.error.message} (${fault.cause})`, EXIT.failure, fault.error.code);
    if (error instanceof ConfigError) this.fail(error.message, EXIT.failure, 'invalid_config');
    if (error instanceof DataDirError) this.fail(error.message, EXIT.failure, 'data_dir');
    if (this.jsonEnabled()) this.fail(error.message, EXIT.failure);
    return super.catch(error);
  }

  /**
   * Every line a command prints for a person passes here: text from the server (an email,
   * a message) has its control and format characters escaped, so it cannot drive the
   * terminal. (`--json` output is JSON, escaped by its encoder.)
   */
  override log(message = '', ...args: unknown[]): void {
    super.log(printableLines(message), ...args);
  }

  protected fail(message: string, exitCode: number, code?: string, details?: unknown): never {
    writeError(message, exitCode, code, this.jsonEnabled(), details);
    this.exit(exitCode);
  }
}

/**
 * Prints a failure to stderr: the `--json` error shape or one `Error:` line. Also used for
 * an unknown command, which fails before any command (and its `catch`) exists.
 */
export function writeError(
  message: string,
  exitCode: number,
  code: string | undefined,
  json: boolean,
  details?: unknown,
): void {
  if (json) {
    // stdout stays empty on failure: scripts read the error from stderr.
    // JSON escapes C0 controls itself; the rest (C1, format characters) too, still valid JSON.
    const error = { code: code ?? FALLBACK_CODES[exitCode] ?? 'failed', message };
    const body = { error: details === undefined ? error : { ...error, details } };
    process.stderr.write(`${printableLines(JSON.stringify(body))}\n`);
  } else {
    // A refused definition's problems, one a line under the message: `path: what is wrong at N`.
    const lines = problemsIn(details).map((problem) => `  ${describeProblem(problem)}\n`);
    process.stderr.write(`Error: ${printableLines(message)}\n${printableLines(lines.join(''))}`);
  }
}

/** The problems a refusal lists (`{path, message, position?}`), or none for any other details. */
function problemsIn(details: unknown): Problem[] {
  if (!Array.isArray(details)) return [];
  return details.filter(
    (entry): entry is Problem =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as Problem).path === 'string' &&
      typeof (entry as Problem).message === 'string',
  );
}
