import { describe, expect, test } from 'bun:test';
import pjson from '../../package.json' with { type: 'json' };
import { commands } from '../../cli/commands.ts';

const OWNER_COMMANDS = [
  'login',
  'logout',
  'password',
  'account:delete',
  'signup',
  'whoami',
  'domains',
  'domains:add',
  'domains:remove',
  'domains:approve',
  'config:get',
  'config:set-webhook',
  'config:remove-webhook',
  'config:test-webhook',
  'calculators',
  'embed',
  'keys:rotate',
];

describe('command metadata', () => {
  test('every owner command is registered', () => {
    for (const id of OWNER_COMMANDS) expect(Object.keys(commands)).toContain(id);
  });

  for (const id of OWNER_COMMANDS) {
    test(`${id}: summary, description, examples and --json`, () => {
      const command = commands[id];
      expect(command?.summary?.length).toBeGreaterThan(10);
      expect(command?.description?.length).toBeGreaterThan(10);
      expect(command?.examples?.length).toBeGreaterThan(0);
      expect(command?.enableJsonFlag).toBe(true);
    });
  }

  test('every topic of an owner command has a description with examples', () => {
    const topics = pjson.oclif.topics as Record<string, { description: string }>;
    for (const topic of ['domains', 'config', 'keys']) {
      expect(topics[topic]?.description).toContain('Examples:');
    }
  });
});
