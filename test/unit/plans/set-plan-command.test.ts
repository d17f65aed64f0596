import { describe, expect, test } from 'bun:test';
import { setPlanCommand, webhookPlanRequired } from '../../../src/plans.ts';

/** What bash makes of the command's words: each argument on its own line. */
function wordsInBash(command: string): string[] {
  const run = Bun.spawnSync(['bash', '-c', `printf '%s\\n' ${command.replace(/^calc /, '')}`]);
  return run.stdout.toString().trimEnd().split('\n');
}

describe('the set-plan command shown to owners and operators', () => {
  test('an ordinary email stands bare', () => {
    expect(setPlanCommand('owner@shop.example', 'extra')).toBe(
      'calc admin accounts set-plan --email owner@shop.example --plan extra',
    );
  });

  // Sign-up accepts any non-space characters around the @: an owner must not be able to
  // hand the operator a command that runs something when pasted.
  test.each(["o'neil$(touch pwned)@shop.example", '`id`;x|y@shop.example', 'a"b\\c@shop.example'])(
    '%s reaches bash as one word, with nothing run',
    (email) => {
      expect(wordsInBash(setPlanCommand(email, 'base'))).toEqual([
        'admin',
        'accounts',
        'set-plan',
        '--email',
        email,
        '--plan',
        'base',
      ]);
    },
  );

  test("the plan error names the webhook's plan, the account's and the command for it", () => {
    expect(webhookPlanRequired({ email: 'owner@shop.example', plan: 'base' })).toBe(
      'Webhooks need the Extra plan (50 USD per month); this account is on the Base plan. ' +
        'Whoever runs this server changes plans with `calc admin accounts set-plan --email owner@shop.example --plan extra`.',
    );
  });
});
