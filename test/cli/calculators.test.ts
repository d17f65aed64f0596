/**
 * `calc calculators` and its subcommands against a real server, each as a separate
 * process: what a person sees, exactly the route's body with --json, `validate` offline
 * with the server's rules and words, and the confirmations of the destructive ones.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { templates } from '../../src/calculators/templates/index.ts';
import { EXAMPLE_DEFINITION } from '../../src/definition/example.ts';
import type { Definition } from '../../src/definition/types.ts';
import { validateDefinition } from '../../src/definition/validate.ts';
import { type CliSession, jsonOf, startCliSession } from '../helpers/cli-session.ts';
import { callJson } from '../helpers/process.ts';
import { runOnTerminal } from '../helpers/pty.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// Every test starts processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(60_000);

let session: CliSession;
let owner: Awaited<ReturnType<CliSession['signedIn']>>;
let token = '';
const files = tempDir('calc-defs-');
beforeAll(async () => {
  session = await startCliSession({ serveArgs: ['--calculators-base', '4'] });
  owner = await session.signedIn('base');
  token = (await callJson(session.url, 'POST', '/v1/auth/login', { email: owner.email, password: owner.password })).json
    .token;
}, 30_000);
afterAll(async () => {
  await session[Symbol.asyncDispose]();
  files[Symbol.dispose]();
});

const calc = (...args: string[]) => session.calc(args, { env: owner.env });
const api = (method: string, path: string, body?: unknown) => callJson(session.url, method, path, body, token);

/** A definition file in the temp directory: its path. */
function file(name: string, content: unknown): string {
  const path = join(files.path, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

const paint = (changes: Partial<Definition> = {}): Definition => ({
  ...structuredClone(EXAMPLE_DEFINITION),
  ...changes,
});

/** A definition with problems in its shape and in two formulas. */
const broken = paint({
  id: 'broken-quote',
  title: '',
  variables: [{ key: 'surface', formula: 'area * constructor' }],
  outputs: [{ key: 'total', label: 'Total', formula: 'surface.toString' }],
});

describe('calc calculators validate: offline, the server’s rules and words', () => {
  // No server at this address, no sign-in: validate needs neither.
  const offline = { CALC_API_URL: 'http://127.0.0.1:9', CALC_CONFIG_DIR: join(files.path, 'nobody') };
  const validate = (...args: string[]) => session.calc(['calculators', 'validate', ...args], { env: offline });

  test('a valid file: exit 0; --json says so', async () => {
    const path = file('paint.json', paint());
    const human = await validate('--file', path);
    expect(human).toMatchObject({ exitCode: 0, stdout: `${path} is a valid definition of paint-quote.\n`, stderr: '' });
    const json = await validate('--file', path, '--json');
    expect(jsonOf(json.stdout)).toEqual({ valid: true, id: 'paint-quote' });
    // Standard input as the file.
    const piped = await session.calc(['calculators', 'validate', '--file', '-'], {
      env: offline,
      stdin: JSON.stringify(paint()),
    });
    expect(piped.stdout).toBe('Standard input is a valid definition of paint-quote.\n');
  });

  test('problems: exit 1, every one by path and position; --json holds what the server answers', async () => {
    const path = file('broken.json', broken);
    const problems = validateDefinition(broken);
    expect(problems.map((p) => p.path)).toEqual(['title', 'variables[0].formula', 'outputs[0].formula']);

    const human = await validate('--file', path);
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toBe('');
    expect(human.stderr).toBe(
      [
        'Error: The definition has 3 problems, all listed in the details; the first: title: must be 1 to 200 characters.',
        '  title: must be 1 to 200 characters',
        '  variables[0].formula: unknown name `constructor` at 7',
        `  outputs[0].formula: ${problems[2]?.message}`,
        '',
      ].join('\n'),
    );
    expect(problems[2]?.message).toEndWith(' at 7');

    const json = await validate('--file', path, '--json');
    expect(json.exitCode).toBe(1);
    expect(json.stdout).toBe('');
    const server = await api('POST', '/v1/account/calculators', { definition: broken });
    expect(server.status).toBe(400);
    expect(jsonOf(json.stderr)).toEqual(server.json);
  });

  test('a file that is missing or not JSON: exit 1, invalid_file', async () => {
    const missing = await validate('--file', join(files.path, 'none.json'), '--json');
    expect(missing.exitCode).toBe(1);
    expect(jsonOf<{ error: { code: string } }>(missing.stderr).error.code).toBe('invalid_file');
    const notJson = await validate('--file', file('not.json', '{"id": "x",'));
    expect(notJson.exitCode).toBe(1);
    expect(notJson.stderr).toStartWith(`Error: ${join(files.path, 'not.json')} is not JSON: `);
    expect((await validate()).exitCode).toBe(2);
  });
});

// One calculator's life, step by step: each test goes on from where the one before left it.
describe('create, update, publish, get, eval, versions, restore, delete', () => {
  test('create prints the new id; get shows the draft until a publish', async () => {
    // create prints the new id alone, for scripts: ID=$(calc calculators create --file F)
    const created = await calc('calculators', 'create', '--file', file('paint.json', paint()));
    expect(created).toMatchObject({ exitCode: 0, stdout: 'paint-quote\n' });
    expect(created.stderr).toContain('calc calculators publish paint-quote');

    // get: only the draft exists yet.
    const unpublished = await calc('calculators', 'get', 'paint-quote');
    expect(unpublished.exitCode).toBe(1);
    expect(unpublished.stderr).toContain('--draft');
    const draft = await calc('calculators', 'get', 'paint-quote', '--draft');
    expect(JSON.parse(draft.stdout)).toEqual(EXAMPLE_DEFINITION);

    const published = await calc('calculators', 'publish', 'paint-quote');
    expect(published.stdout).toBe('Published paint-quote: version 1 is live.\n');
  });

  test('update saves the draft; a refusal lists every problem; the live version stays', async () => {
    // A changed draft from a file; refusals list every problem; the live version stays.
    const cheaper = paint({ tables: { discounts: [[0, 0.5]] } });
    const updated = await calc('calculators', 'update', 'paint-quote', '--file', file('cheaper.json', cheaper));
    expect(updated.stdout).toBe(
      'Saved the draft of paint-quote; publish it with `calc calculators publish paint-quote`.\n',
    );
    const refused = await calc('calculators', 'update', 'paint-quote', '--file', file('b.json', broken), '--json');
    expect(refused.exitCode).toBe(1);
    const refusal = jsonOf<{ error: { code: string; details: unknown } }>(refused.stderr).error;
    expect(refusal.code).toBe('invalid_definition');
    // Its id is not the path's, besides the problems of the file itself.
    expect(refusal.details).toEqual([
      ...validateDefinition(broken),
      {
        path: 'id',
        message:
          'must be "paint-quote", the id of this calculator: to rename it, create a copy under the new id and delete this one',
      },
    ]);

    const live = await calc('calculators', 'get', 'paint-quote');
    expect(JSON.parse(live.stdout)).toEqual(EXAMPLE_DEFINITION);
    const body = await calc('calculators', 'get', 'paint-quote', '--json');
    expect(jsonOf(body.stdout)).toEqual((await api('GET', '/v1/account/calculators/paint-quote')).json);
    expect(jsonOf<{ status: string }>(body.stdout).status).toBe('changed');
  });

  test('eval: inputs read by kind, left-out ones at their default; --draft; a table or --json', async () => {
    const cheaper = paint({ tables: { discounts: [[0, 0.5]] } });
    expect((await calc('calculators', 'get', 'paint-quote', '--draft')).stdout).toBe(
      `${JSON.stringify(cheaper, null, 2)}\n`,
    );
    const evaluated = await calc('calculators', 'eval', 'paint-quote', '--set', 'area=120', '--set', 'finish=gloss');
    expect(evaluated.exitCode).toBe(0);
    expect(evaluated.stdout).toBe(
      ['OUTPUT  LABEL         VALUE', 'total   Estimate       1710', 'days    Working days      3', ''].join('\n'),
    );
    const asJson = await calc(
      'calculators',
      'eval',
      'paint-quote',
      '-s',
      'area=120',
      '-s',
      'ceiling=yes',
      '--draft',
      '--json',
    );
    expect(jsonOf(asJson.stdout)).toEqual({ outputs: { total: 156 * 12 * 0.5, days: 4 } });
    for (const [set, message] of [
      ['colour=red', 'paint-quote has no input "colour"; its inputs: area, finish, ceiling.'],
      ['area=lots', '--set area: must be a number, not "lots".'],
      ['finish=satin', '--set finish: must be one of matt, gloss.'],
      ['ceiling=maybe', '--set ceiling: must be true or false.'],
      ['area', '--set area: write key=value, such as --set area=120.'],
    ] as const) {
      const bad = await calc('calculators', 'eval', 'paint-quote', '--set', set, '--json');
      expect({ set, exitCode: bad.exitCode, error: jsonOf(bad.stderr) }).toEqual({
        set,
        exitCode: 1,
        error: { error: { code: 'invalid_flag', message } },
      });
    }
  });

  test('versions and restore roll a publish back', async () => {
    // Publish again, list versions, roll back to 1 and publish it back.
    await calc('calculators', 'publish', 'paint-quote');
    const versions = await calc('calculators', 'versions', 'paint-quote');
    expect(versions.stdout).toMatch(/^VERSION {2}PUBLISHED\n {6}2 {2}\S+ {2}live\n {6}1 {2}\S+\n$/);
    const versionsJson = await calc('calculators', 'versions', 'paint-quote', '--json');
    expect(jsonOf(versionsJson.stdout)).toEqual(
      (await api('GET', '/v1/account/calculators/paint-quote/versions')).json,
    );
    // Nothing unpublished in the draft: no question.
    const restored = await calc('calculators', 'restore', 'paint-quote', '1');
    expect(restored.exitCode).toBe(0);
    expect(restored.stdout).toContain('Version 1 of paint-quote is the draft now');
    await calc('calculators', 'publish', 'paint-quote');
    expect(JSON.parse((await calc('calculators', 'get', 'paint-quote')).stdout)).toEqual(EXAMPLE_DEFINITION);
    expect((await calc('calculators', 'restore', 'paint-quote', 'one')).exitCode).toBe(1);
  });

  test('the list shows the catalogue, then yours; delete needs --yes off a terminal', async () => {
    // The list: the catalogue, then yours; --json adds `own`.
    const list = await calc('calculators');
    expect(list.stdout).toMatch(
      /\n\nYOURS\s+STATUS\s+VERSION\s+UPDATED\s+TITLE\npaint-quote\s+published\s+3\s+\S+\s+Painting quote\n$/,
    );
    const listJson = jsonOf<{ calculators: unknown[]; own: unknown[] }>((await calc('calculators', '--json')).stdout);
    expect(listJson.calculators).toEqual((await callJson(session.url, 'GET', '/v1/calculators')).json.calculators);
    expect(listJson.own).toEqual((await api('GET', '/v1/account/calculators')).json.calculators);

    // delete: off a terminal only with --yes.
    const unconfirmed = await calc('calculators', 'delete', 'paint-quote', '--json');
    expect(unconfirmed.exitCode).toBe(1);
    expect(jsonOf<{ error: { code: string } }>(unconfirmed.stderr).error.code).toBe('confirmation_required');
    const deleted = await calc('calculators', 'delete', 'paint-quote', '--yes', '--json');
    expect(jsonOf(deleted.stdout)).toEqual({ id: 'paint-quote', deleted: true });
    const gone = await calc('calculators', 'get', 'paint-quote');
    expect(gone).toMatchObject({ exitCode: 1, stderr: 'Error: You have no calculator "paint-quote".\n' });
  });

  test('copies: --from a template (default id, then -copy-2), --id; units; the plan limit passes through', async () => {
    const first = await calc('calculators', 'create', '--from', 'bmi', '--json');
    expect(jsonOf<{ id: string; draft: unknown }>(first.stdout)).toMatchObject({
      id: 'bmi-copy',
      draft: { ...templates[0]?.definition, id: 'bmi-copy' },
    });
    expect((await calc('calculators', 'create', '--from', 'bmi')).stdout).toBe('bmi-copy-2\n');
    expect((await calc('calculators', 'create', '--from', 'loan', '--id', 'car-loan')).stdout).toBe('car-loan\n');
    const imperial = await calc(
      'calculators',
      'eval',
      'bmi-copy',
      '--draft',
      '--set',
      'weight=154',
      '--set',
      'height=70',
      '--units',
      'imperial',
      '--json',
    );
    const { outputs } = jsonOf<{ outputs: { bmi: number } }>(imperial.stdout);
    expect(outputs.bmi).toBeCloseTo(22.1, 1);
    // --id with --file renames the file's definition.
    expect((await calc('calculators', 'create', '--file', file('p.json', paint()), '--id', 'room-quote')).stdout).toBe(
      'room-quote\n',
    );
    // Base allows 4 here: the fifth is refused with the server's message.
    const fifth = await calc('calculators', 'create', '--from', 'tip');
    expect(fifth.exitCode).toBe(1);
    expect(fifth.stderr).toStartWith('Error: The Base plan allows 4 calculators of your own, and this account has 4.');
    // Exactly one of --file and --from: command-line syntax, exit 2.
    expect((await calc('calculators', 'create')).exitCode).toBe(2);
    expect((await calc('calculators', 'create', '--from', 'bmi', '--file', 'x.json')).exitCode).toBe(2);
    for (const id of ['bmi-copy', 'bmi-copy-2', 'car-loan', 'room-quote'])
      expect((await calc('calculators', 'delete', id, '--yes')).exitCode).toBe(0);
  });

  test('delete and restore ask on a terminal; "n" keeps everything', async () => {
    await calc('calculators', 'create', '--file', file('paint.json', paint()));
    await calc('calculators', 'publish', 'paint-quote');
    await calc('calculators', 'update', 'paint-quote', '--file', file('t.json', paint({ title: 'Unpublished' })));
    const onTerminal = (args: string[], prompt: string, answer: string) =>
      runOnTerminal([...session.command, ...args], [{ waitFor: prompt, type: `${answer}\r` }], {
        ...owner.env,
        CALC_API_URL: session.url,
        NO_COLOR: '1',
      });
    const kept = await onTerminal(
      ['calculators', 'restore', 'paint-quote', '1'],
      'Restore version 1 of paint-quote as the draft? [y/N] ',
      'n',
    );
    expect(kept.exitCode).toBe(1);
    expect(kept.screen).toContain('changes that were never published');
    expect((await api('GET', '/v1/account/calculators/paint-quote')).json.draft.title).toBe('Unpublished');
    const declined = await onTerminal(['calculators', 'delete', 'paint-quote'], 'Delete paint-quote? [y/N] ', 'n');
    expect(declined.exitCode).toBe(1);
    expect((await api('GET', '/v1/account/calculators/paint-quote')).status).toBe(200);
    const accepted = await onTerminal(['calculators', 'delete', 'paint-quote'], 'Delete paint-quote? [y/N] ', 'y');
    expect(accepted.exitCode).toBe(0);
    expect(accepted.screen).toContain('calculator unavailable');
    expect((await api('GET', '/v1/account/calculators/paint-quote')).status).toBe(404);
  });

  test('signed out: the owner commands exit 4; the catalogue list still works', async () => {
    const signedOut = (...args: string[]) => session.calc(args);
    for (const args of [
      ['calculators', 'create', '--from', 'bmi'],
      ['calculators', 'publish', 'x'],
      ['calculators', 'get', 'x'],
      ['calculators', 'eval', 'x'],
      ['calculators', 'delete', 'x', '--yes'],
      ['calculators', 'versions', 'x'],
    ])
      expect({ args, exitCode: (await signedOut(...args)).exitCode }).toEqual({ args, exitCode: 4 });
    const list = await signedOut('calculators', '--json');
    expect(list.exitCode).toBe(0);
    expect(Object.keys(jsonOf(list.stdout))).toEqual(['calculators']);
  });
});
