import { Flags } from '@oclif/core';
import { BaseCommand } from './base-command.ts';
import { ApiClient } from './lib/api-client.ts';
import { resolveApiTarget } from './lib/api-target.ts';

/** The flag every owner command shares. */
const apiUrlFlag = Flags.string({
  description:
    'calc server to talk to [env: CALC_API_URL] (default: the server you signed in to, else http://127.0.0.1:8787)',
  helpGroup: 'GLOBAL',
});

/**
 * Owner commands talk to a server over HTTP with the signed-in account's token; they
 * never open a data directory.
 */
export abstract class OwnerCommand extends BaseCommand {
  static override baseFlags = { 'api-url': apiUrlFlag };

  /** A client for the chosen server, carrying the token that belongs to it (if any). */
  protected api(flags: { 'api-url'?: string }): ApiClient {
    return new ApiClient(resolveApiTarget(flags['api-url']));
  }
}
