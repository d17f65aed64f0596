import { Config, Errors, flush, handle, Plugin, run } from '@oclif/core';
import pjson from '../package.json' with { type: 'json' };
import { EXIT, writeError } from './base-command.ts';
import { commands } from './commands.ts';

/**
 * Runs the CLI with its root plugin built in code: oclif would otherwise look for
 * package.json on disk and require() commands by path, neither of which exists
 * inside the compiled executable.
 */
/**
 * `calc --version` and the help's VERSION line print oclif's `userAgent`, which names the
 * Node version Bun reports for compatibility (node-v26…), not the runtime calc runs on.
 * oclif rebuilds its Config inside `execute` and has no option for this, so the line is
 * set after each load.
 */
const loadConfig = Config.prototype.load;
Config.prototype.load = async function load(this: Config) {
  await loadConfig.call(this);
  this.userAgent = `${pjson.name}/${pjson.version} ${this.platform}-${this.arch} bun-${Bun.version}`;
};

export async function runCli(argv: string[]): Promise<void> {
  const root = import.meta.dir;
  const plugin = new Plugin({ root, name: pjson.name, pjson: pjson as never, isRoot: true, ignoreManifest: true });
  // oclif has no public hook for an explicit command map; this private field is what
  // its explicit strategy fills after importing the target module (pinned @oclif/core).
  (plugin as unknown as { commandCache: Record<string, unknown> }).commandCache = commands;
  await plugin.load();
  // oclif's `execute`, except that an unknown command under --json gets the JSON error shape.
  await run(argv, { root, pjson: pjson as never, plugins: new Map([[pjson.name, plugin]]) })
    .then(() => void flush())
    .catch((error) => {
      const id = unknownCommand(error);
      if (id === undefined || !jsonRequested(argv)) return handle(error);
      const exitCode = error.oclif?.exit ?? EXIT.usage;
      // `calc --json` alone names a flag where the command should be.
      const message = id.startsWith('-') ? 'calc needs a command' : `calc has no command "${id}"`;
      writeError(`${message}; see calc --help.`, exitCode, 'usage', true);
      process.exit(exitCode);
    });
}

/**
 * The command an unknown-command error names, spelled as typed ("keys bogus"). It fails
 * inside oclif before any BaseCommand, whose `catch` prints `--json` errors, exists; oclif
 * says only `command keys:bogus not found` (pinned @oclif/core).
 */
function unknownCommand(error: unknown): string | undefined {
  if (!(error instanceof Errors.CLIError)) return undefined;
  return /^command (\S+) not found$/.exec(error.message)?.[1]?.replaceAll(':', ' ');
}

/** `--json` among the flags (not after `--`, where it would be an argument). */
function jsonRequested(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}
