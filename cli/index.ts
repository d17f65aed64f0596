import { Config, execute, Plugin } from '@oclif/core';
import pjson from '../package.json' with { type: 'json' };
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
  await execute({ args: argv, loadOptions: { root, pjson: pjson as never, plugins: new Map([[pjson.name, plugin]]) } });
}
