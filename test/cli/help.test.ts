import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import pjson from '../../package.json' with { type: 'json' };
import { BaseCommand } from '../../cli/base-command.ts';
import { commands } from '../../cli/commands.ts';
import { OwnerCommand } from '../../cli/owner-command.ts';
import { ROOT } from '../helpers/process.ts';

/** calc's own commands in the manifest (the help and completion plugins bring theirs). */
const own = Object.entries(commands).filter(([, command]) => command.prototype instanceof BaseCommand);
/** The commands an owner runs against a server. */
const ownerCommands = own.filter(([, command]) => command.prototype instanceof OwnerCommand).map(([id]) => id);
/** `calc serve` runs until it is stopped: it writes log lines, not a result to read as JSON. */
const withResult = own.filter(([id]) => id !== 'serve');

/** The id a command file stands for: `cli/commands/domains/index.ts` is `domains`, `…/domains/add.ts` `domains:add`. */
const idOf = (path: string) =>
  path
    .replace(/\.ts$/, '')
    .replace(/\/index$/, '')
    .replaceAll('/', ':');

describe('command metadata', () => {
  test('every command file is in the manifest under its path, and nothing else is', () => {
    const files = [...new Bun.Glob('**/*.ts').scanSync(join(ROOT, 'cli', 'commands'))].map(idOf);
    expect(files.sort()).toEqual(own.map(([id]) => id).sort());
    expect(ownerCommands).toContain('keys:signing-secret');
  });

  for (const [id, command] of withResult) {
    test(`${id}: summary, description, examples and --json`, () => {
      expect(command.summary?.length).toBeGreaterThan(10);
      expect(command.description?.length).toBeGreaterThan(10);
      expect(command.examples?.length).toBeGreaterThan(0);
      expect(command.enableJsonFlag).toBe(true);
    });
  }

  test('every topic of an owner command has a description with examples', () => {
    const topics = pjson.oclif.topics as Record<string, { description: string }>;
    const ownerTopics = new Set(ownerCommands.filter((id) => id.includes(':')).map((id) => id.split(':')[0] ?? ''));
    expect(ownerTopics.size).toBeGreaterThan(0);
    for (const topic of ownerTopics)
      expect({ topic, description: topics[topic]?.description }).toEqual({
        topic,
        description: expect.stringContaining('Examples:'),
      });
  });
});
