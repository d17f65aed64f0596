import { execute, Plugin } from '@oclif/core';
import pjson from '../package.json' with { type: 'json' };
import { commands } from './commands.ts';

/**
 * Runs the CLI with its root plugin built in code: oclif would otherwise look for
 * package.json on disk and require() commands by path, neither of which exists
 * inside the compiled executable.
 */
export async function runCli(argv: string[]): Promise<void> {
  const root = import.meta.dir;
  const plugin = new Plugin({ root, name: pjson.name, pjson: pjson as never, isRoot: true, ignoreManifest: true });
  // oclif has no public hook for an explicit command map; this private field is what
  // its explicit strategy fills after importing the target module (pinned @oclif/core).
  (plugin as unknown as { commandCache: Record<string, unknown> }).commandCache = commands;
  await plugin.load();
  await execute({ args: argv, loadOptions: { root, pjson: pjson as never, plugins: new Map([[pjson.name, plugin]]) } });
}
