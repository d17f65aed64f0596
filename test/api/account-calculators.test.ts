/**
 * An owner's own calculators through the real app: drafts, publish, versions, restore,
 * the server's evaluation, every refusal with every problem listed, plan limits and
 * isolation between accounts. Runs on SQLite, and on PostgreSQL with CALC_TEST_DATABASE=postgres.
 */
import { describe, expect, test } from 'bun:test';
import { templates } from '../../src/calculators/templates/index.ts';
import { compile } from '../../src/definition/compile.ts';
import { evaluate } from '../../src/definition/evaluate.ts';
import { EXAMPLE_DEFINITION } from '../../src/definition/example.ts';
import { LOCALES } from '../../src/definition/locales.ts';
import type { Definition } from '../../src/definition/types.ts';
import { validateDefinition } from '../../src/definition/validate.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';

const BASE = '/v1/account/calculators';

/** The reference's example calculator under another id (and other changes). */
const paint = (changes: Partial<Definition> = {}): Definition => ({
  ...structuredClone(EXAMPLE_DEFINITION),
  ...changes,
});

type Owner = Awaited<ReturnType<TestApp['signup']>>;

const create = (app: TestApp, owner: Owner, body: unknown) => app.request('POST', BASE, { token: owner.token, body });

const rowsOf = async (app: TestApp, accountId: string) => ({
  calculators: await app.count('custom_calculators WHERE account_id = $1', accountId),
  versions: await app.count('custom_calculator_versions WHERE account_id = $1', accountId),
});

describe('drafts, publishing and the owner list', () => {
  test('create → a draft; publish → published; a saved change → changed; evaluate each; delete', async () => {
    using app = testApp();
    const owner = await app.signup();
    const token = owner.token;

    const created = await create(app, owner, { definition: paint() });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: 'paint-quote',
      status: 'draft',
      draft: EXAMPLE_DEFINITION,
      published: null,
      publishedVersion: null,
      createdAt: expect.any(String),
      updatedAt: created.json.createdAt,
    });
    expect(new Date(created.json.createdAt).toISOString()).toBe(created.json.createdAt);

    // Not published yet: the published version cannot be evaluated, the draft can.
    const early = await app.request('POST', `${BASE}/paint-quote/evaluate`, { token, body: { inputs: {} } });
    expect(early.status).toBe(404);
    expect(early.json.error.code).toBe('calculator_not_found');
    expect(early.json.error.message).toContain('no published version');
    const draftEval = await app.request('POST', `${BASE}/paint-quote/evaluate`, {
      token,
      body: { inputs: {}, draft: true },
    });
    expect(draftEval.json).toEqual({ outputs: { total: 720, days: 2 } });

    const published = await app.request('POST', `${BASE}/paint-quote/publish`, { token });
    expect(published.status).toBe(200);
    expect(published.json).toMatchObject({ status: 'published', publishedVersion: 1, published: EXAMPLE_DEFINITION });

    // A new draft: visitors (and the published evaluation) keep version 1 until it is published.
    const dearer = paint({ tables: { discounts: [[0, 0]] } });
    const saved = await app.request('PUT', `${BASE}/paint-quote`, { token, body: { definition: dearer } });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ status: 'changed', publishedVersion: 1, draft: dearer });
    expect(saved.json.published).toEqual(EXAMPLE_DEFINITION);
    const inputs = { area: 400, finish: 'gloss', ceiling: false };
    const live = await app.request('POST', `${BASE}/paint-quote/evaluate`, { token, body: { inputs } });
    expect(live.json.outputs).toEqual({ total: 400 * 15 * 0.9, days: 10 });
    const next = await app.request('POST', `${BASE}/paint-quote/evaluate`, { token, body: { inputs, draft: true } });
    expect(next.json.outputs).toEqual({ total: 400 * 15, days: 10 });

    const list = await app.request('GET', BASE, { token });
    expect(list.json).toEqual({
      calculators: [
        {
          id: 'paint-quote',
          title: EXAMPLE_DEFINITION.title,
          status: 'changed',
          publishedVersion: 1,
          updatedAt: saved.json.updatedAt,
        },
      ],
    });

    const again = await app.request('POST', `${BASE}/paint-quote/publish`, { token });
    expect(again.json).toMatchObject({ status: 'published', publishedVersion: 2, published: dearer });
    expect(
      (await app.request('POST', `${BASE}/paint-quote/evaluate`, { token, body: { inputs } })).json.outputs.total,
    ).toBe(6000);

    const removed = await app.request('DELETE', `${BASE}/paint-quote`, { token });
    expect(removed.status).toBe(200);
    expect(removed.json).toEqual({ id: 'paint-quote', deleted: true });
    expect(await rowsOf(app, owner.id)).toEqual({ calculators: 0, versions: 0 });
    for (const [method, path] of [
      ['GET', `${BASE}/paint-quote`],
      ['DELETE', `${BASE}/paint-quote`],
      ['POST', `${BASE}/paint-quote/publish`],
      ['GET', `${BASE}/paint-quote/versions`],
      ['POST', `${BASE}/paint-quote/versions/1/restore`],
    ] as const) {
      const gone = await app.request(method, path, { token });
      expect({ path, status: gone.status, code: gone.json.error.code }).toEqual({
        path,
        status: 404,
        code: 'calculator_not_found',
      });
    }
    expect((await app.request('GET', BASE, { token })).json).toEqual({ calculators: [] });
  });

  test('publishing an unchanged draft keeps its version; PUT of an unknown id is 404', async () => {
    using app = testApp();
    const owner = await app.signup();
    await create(app, owner, { definition: paint() });
    const first = await app.request('POST', `${BASE}/paint-quote/publish`, { token: owner.token });
    const second = await app.request('POST', `${BASE}/paint-quote/publish`, { token: owner.token });
    expect(second.json).toEqual(first.json);
    expect(
      (await app.request('GET', `${BASE}/paint-quote/versions`, { token: owner.token })).json.versions,
    ).toHaveLength(1);
    const missing = await app.request('PUT', `${BASE}/roof-quote`, {
      token: owner.token,
      body: { definition: paint({ id: 'roof-quote' }) },
    });
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('calculator_not_found');
  });

  test('versions: each publish keeps one, the newest 20 are kept; a restored version is the draft until published', async () => {
    using app = testApp();
    const owner = await app.signup();
    const token = owner.token;
    await create(app, owner, { definition: paint() });
    const withTitle = (n: number) => paint({ title: `Painting quote ${n}` });
    for (let n = 1; n <= 25; n++) {
      expect(
        (await app.request('PUT', `${BASE}/paint-quote`, { token, body: { definition: withTitle(n) } })).status,
      ).toBe(200);
      expect((await app.request('POST', `${BASE}/paint-quote/publish`, { token })).json.publishedVersion).toBe(n);
    }
    const versions = await app.request('GET', `${BASE}/paint-quote/versions`, { token });
    expect(versions.status).toBe(200);
    expect(versions.json.id).toBe('paint-quote');
    expect(versions.json.publishedVersion).toBe(25);
    expect(versions.json.versions.map((v: { version: number }) => v.version)).toEqual(
      Array.from({ length: 20 }, (_, i) => 25 - i),
    );
    for (const v of versions.json.versions) expect(new Date(v.publishedAt).toISOString()).toBe(v.publishedAt);
    expect(await app.count('custom_calculator_versions WHERE account_id = $1', owner.id)).toBe(20);

    const restored = await app.request('POST', `${BASE}/paint-quote/versions/6/restore`, { token });
    expect(restored.status).toBe(200);
    expect(restored.json).toMatchObject({ status: 'changed', publishedVersion: 25, draft: withTitle(6) });
    expect(restored.json.published).toEqual(withTitle(25));
    // Restoring the published version makes the draft that version again.
    const back = await app.request('POST', `${BASE}/paint-quote/versions/25/restore`, { token });
    expect(back.json.status).toBe('published');

    const pruned = await app.request('POST', `${BASE}/paint-quote/versions/5/restore`, { token });
    expect(pruned.status).toBe(404);
    expect(pruned.json.error.code).toBe('calculator_not_found');
    expect(pruned.json.error.message).toContain('no version 5');
    for (const bad of ['0', 'x', '-1', '1.5']) {
      const refused = await app.request('POST', `${BASE}/paint-quote/versions/${bad}/restore`, { token });
      expect({ bad, status: refused.status, code: refused.json.error.code }).toEqual({
        bad,
        status: 400,
        code: 'invalid_request',
      });
    }
  });
});

describe('copies of templates', () => {
  test('from a template: <id>-copy, then -copy-2; an explicit id; from one of your own; unknown → 404', async () => {
    using app = testApp({ flags: { 'calculators-free': 10 } });
    const owner = await app.signup();
    const bmi = templates.find((template) => template.definition.id === 'bmi')?.definition as Definition;
    const first = await create(app, owner, { from: 'bmi' });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ id: 'bmi-copy', status: 'draft', draft: { ...bmi, id: 'bmi-copy' } });
    expect((await create(app, owner, { from: 'bmi' })).json.id).toBe('bmi-copy-2');
    expect((await create(app, owner, { from: 'bmi', id: 'my-bmi' })).json.id).toBe('my-bmi');
    const ownCopy = await create(app, owner, { from: 'my-bmi' });
    expect(ownCopy.json).toMatchObject({ id: 'my-bmi-copy', draft: { ...bmi, id: 'my-bmi-copy' } });

    const taken = await create(app, owner, { from: 'loan', id: 'my-bmi' });
    expect(taken.status).toBe(409);
    expect(taken.json.error).toEqual({ code: 'calculator_exists', message: 'You already have a calculator "my-bmi".' });
    const unknown = await create(app, owner, { from: 'no-such-calc' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('calculator_not_found');
    const both = await create(app, owner, { from: 'bmi', definition: paint() });
    expect(both.status).toBe(400);
    expect(both.json.error.code).toBe('invalid_request');

    // The copy of bmi evaluates as the catalogue's bmi does, in both unit systems.
    await app.request('POST', `${BASE}/bmi-copy/publish`, { token: owner.token });
    const compiled = compile(bmi);
    if (!compiled.ok) throw new Error('bmi does not compile');
    for (const [inputs, units] of [
      [{ weight: 154, height: 70 }, 'imperial'],
      [{ weightKg: 82.5, heightCm: 178 }, 'metric'],
    ] as const) {
      const answer = await app.request('POST', `${BASE}/bmi-copy/evaluate`, {
        token: owner.token,
        body: { inputs, units },
      });
      expect(answer.status).toBe(200);
      expect(answer.json.outputs).toEqual(evaluate(compiled.compiled, inputs, units));
      expect(answer.json.outputs.bmi).toBeGreaterThan(20);
    }
  });

  test('a catalogue id is never an owner id (409), and a template is not one of yours (404)', async () => {
    using app = testApp();
    const owner = await app.signup();
    const clash = await create(app, owner, { definition: paint({ id: 'loan' }) });
    expect(clash.status).toBe(409);
    expect(clash.json.error.code).toBe('calculator_exists');
    expect(clash.json.error.message).toContain('catalogue');
    expect((await create(app, owner, { from: 'bmi', id: 'loan' })).status).toBe(409);
    for (const [method, path] of [
      ['GET', `${BASE}/bmi`],
      ['POST', `${BASE}/bmi/publish`],
    ] as const) {
      const answer = await app.request(method, path, { token: owner.token });
      expect(answer.status).toBe(404);
      expect(answer.json.error.message).toContain('calculator of the catalogue');
    }
    const evaluated = await app.request('POST', `${BASE}/bmi/evaluate`, { token: owner.token, body: { inputs: {} } });
    expect(evaluated.status).toBe(404);
    expect(await rowsOf(app, owner.id)).toEqual({ calculators: 0, versions: 0 });
  });
});

describe('refusals: every problem, by path and position, in the validator’s words', () => {
  /** The refusal of `definition` on create, and nothing stored. */
  async function refusal(definition: unknown) {
    using app = testApp();
    const owner = await app.signup();
    const answer = await create(app, owner, { definition });
    expect(await rowsOf(app, owner.id)).toEqual({ calculators: 0, versions: 0 });
    return answer;
  }

  const cases: [string, unknown][] = [
    ['not an object', 'paint'],
    ['the shape: missing, unknown and wrong fields', { ...paint(), title: '', inputs: {}, colour: 'red' }],
    [
      'formulas: unknown names, member access, indexing, strings, calls of non-functions',
      paint({
        variables: [{ key: 'surface', formula: 'area * constructor' }],
        outputs: [
          { key: 'a', label: 'A', formula: 'this.constructor' },
          { key: 'b', label: 'B', formula: 'area["x"]' },
          { key: 'c', label: 'C', formula: "'1' + 2" },
          { key: 'd', label: 'D', formula: 'toString(area)' },
          { key: 'e', label: 'E', formula: '__proto__' },
        ],
      }),
    ],
    [
      'a cycle: variables that use themselves or later ones',
      paint({
        variables: [
          { key: 'a', formula: 'b + 1' },
          { key: 'b', formula: 'a + b' },
        ],
        outputs: [{ key: 'x', label: 'X', formula: 'a' }],
      }),
    ],
    [
      'too deep, too long, too many nodes',
      paint({
        outputs: [
          { key: 'deep', label: 'Deep', formula: `${'('.repeat(33)}1${')'.repeat(33)}` },
          { key: 'negated', label: 'Negated', formula: `${'-'.repeat(40)}1` },
          { key: 'long', label: 'Long', formula: `${'1+'.repeat(500)}1` },
          { key: 'wide', label: 'Wide', formula: Array.from({ length: 120 }, () => 'area').join('+') },
        ],
      }),
    ],
    ['keys outside the pattern', paint({ inputs: [{ kind: 'toggle', key: '__proto__', label: 'P', default: true }] })],
  ];

  test.each(cases)(
    '%s → 400 invalid_definition listing exactly what the validator lists',
    async (_name, definition) => {
      const answer = await refusal(definition);
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe('invalid_definition');
      const problems = validateDefinition(definition);
      expect(problems.length).toBeGreaterThan(0);
      expect(answer.json.error.details).toEqual(problems);
      expect(answer.json.error.message).toContain(
        problems.length === 1 ? 'has a problem' : `has ${problems.length} problems`,
      );
    },
  );

  test('formula problems carry their position; every formula of the definition is reported', async () => {
    const definition = cases[2]?.[1] as Definition;
    const { json } = await refusal(definition);
    const byPath = Object.fromEntries(
      json.error.details.map((p: { path: string; message: string; position?: number }) => [p.path, p]),
    );
    expect(byPath['variables[0].formula']).toEqual({
      path: 'variables[0].formula',
      message: 'unknown name `constructor` at 7',
      position: 7,
    });
    for (const i of [0, 1, 2, 3, 4]) expect(byPath[`outputs[${i}].formula`]?.position).toBeNumber();
    expect(byPath['outputs[3].formula'].message).toBe('`toString` is not a function at 0');
  });

  test('a cycle names the later variable and the variable that uses itself', async () => {
    const { json } = await refusal(cases[3]?.[1]);
    expect(json.error.details).toEqual([
      {
        path: 'variables[0].formula',
        message: '`b` comes later: a variable may use only inputs and earlier variables at 0',
        position: 0,
      },
      { path: 'variables[1].formula', message: '`b` cannot use itself at 4', position: 4 },
    ]);
  });

  test('a body over 64 KiB is 413 payload_too_large before it is read; nested past 32 levels, 400 invalid_request', async () => {
    // 50 inputs labelled in 8 languages of 200 characters: a definition of about 85 KB.
    const label = { en: 'x'.repeat(200), ...Object.fromEntries(LOCALES.map((l) => [l, 'x'.repeat(200)])) };
    const big = paint({
      inputs: Array.from({ length: 50 }, (_, i) => ({ kind: 'toggle' as const, key: `t${i}`, label, default: false })),
      variables: [],
      outputs: [{ key: 'n', label: 'N', formula: 't0' }],
      tables: {},
    });
    expect(JSON.stringify(big).length).toBeGreaterThan(64 * 1024);
    using app = testApp();
    const owner = await app.signup();
    const tooLarge = await create(app, owner, { definition: big });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json.error.code).toBe('payload_too_large');
    // Offline, the validator says why in its own words.
    expect(validateDefinition(big)[0]?.message).toStartWith('a definition has at most 65536 bytes of JSON');

    let nested: unknown = 'x';
    for (let i = 0; i < 40; i++) nested = { en: nested };
    const deep = await create(app, owner, { definition: paint({ description: nested as string }) });
    expect(deep.status).toBe(400);
    expect(deep.json.error.code).toBe('invalid_request');
    expect(await rowsOf(app, owner.id)).toEqual({ calculators: 0, versions: 0 });
  });

  test('PUT: the same checks, and the id must be the path’s; nothing is saved on a refusal', async () => {
    using app = testApp();
    const owner = await app.signup();
    await create(app, owner, { definition: paint() });
    const renamed = await app.request('PUT', `${BASE}/paint-quote`, {
      token: owner.token,
      body: { definition: paint({ id: 'paint-quote-2', title: '' }) },
    });
    expect(renamed.status).toBe(400);
    expect(renamed.json.error.details).toEqual([
      { path: 'title', message: 'must be 1 to 200 characters' },
      {
        path: 'id',
        message:
          'must be "paint-quote", the id of this calculator: to rename it, create a copy under the new id and delete this one',
      },
    ]);
    expect((await app.request('GET', `${BASE}/paint-quote`, { token: owner.token })).json.draft).toEqual(
      EXAMPLE_DEFINITION,
    );
    const shapeless = await app.request('PUT', `${BASE}/paint-quote`, { token: owner.token, body: { other: 1 } });
    expect(shapeless.status).toBe(400);
    expect(shapeless.json.error.code).toBe('invalid_request');
  });

  test('every route wants a token: 401 before the body is looked at', async () => {
    using app = testApp();
    for (const [method, path, body] of [
      ['GET', BASE, undefined],
      ['POST', BASE, { definition: 'not even a definition' }],
      ['GET', `${BASE}/paint-quote`, undefined],
      ['PUT', `${BASE}/paint-quote`, { definition: {} }],
      ['DELETE', `${BASE}/paint-quote`, undefined],
      ['POST', `${BASE}/paint-quote/publish`, undefined],
      ['GET', `${BASE}/paint-quote/versions`, undefined],
      ['POST', `${BASE}/paint-quote/versions/1/restore`, undefined],
      ['POST', `${BASE}/paint-quote/evaluate`, { inputs: {} }],
    ] as const) {
      const answer = await app.request(method, path, { body });
      expect({ path, method, status: answer.status }).toEqual({ path, method, status: 401 });
    }
  });
});

describe('mutated definitions', () => {
  // A deterministic generator, so that a failure can be replayed.
  function random(seed: number) {
    let state = seed;
    return () => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state / 0x7fffffff;
    };
  }
  const HOSTILE: unknown[] = [null, true, -1, 1e308, '', 'x'.repeat(300), [], {}, [[]], { en: 7 }, '__proto__'];

  /** The example with one value somewhere in it replaced by something hostile. */
  function mutated(rnd: () => number): unknown {
    const copy: any = structuredClone(EXAMPLE_DEFINITION);
    const places: [any, string | number][] = [];
    const walk = (node: any) => {
      for (const key of Object.keys(node)) {
        places.push([node, Array.isArray(node) ? Number(key) : key]);
        if (typeof node[key] === 'object' && node[key] !== null) walk(node[key]);
      }
    };
    walk(copy);
    const [parent, key] = places[Math.floor(rnd() * places.length)] as [any, string | number];
    parent[key] = HOSTILE[Math.floor(rnd() * HOSTILE.length)];
    return copy;
  }

  test('never get a 500: each is saved exactly when the validator passes it, or refused with its problems', async () => {
    using app = testApp({ flags: { 'calculators-free': 1000 } });
    const owner = await app.signup();
    await create(app, owner, { definition: paint() });
    const rnd = random(23);
    const outcomes = { saved: 0, refused: 0 };
    for (let i = 0; i < 150; i++) {
      const definition = mutated(rnd) as Record<string, unknown>;
      const problems = validateDefinition(definition);
      // Saved under the path's id, so that every accepted one replaces the same draft.
      const put = await app.request('PUT', `${BASE}/paint-quote`, {
        token: owner.token,
        body: { definition: { ...definition, id: 'paint-quote' } },
      });
      const expected = validateDefinition({ ...definition, id: 'paint-quote' });
      expect({ i, status: put.status }).toEqual({ i, status: expected.length === 0 ? 200 : 400 });
      if (expected.length > 0) expect(put.json.error.details).toEqual(expected);
      outcomes[expected.length === 0 ? 'saved' : 'refused']++;
      // Evaluating whatever was saved last never fails either.
      const evaluated = await app.request('POST', `${BASE}/paint-quote/evaluate`, {
        token: owner.token,
        body: { inputs: {}, draft: true },
      });
      expect(evaluated.status).toBe(200);
      if (problems.length === 0 && typeof definition.id === 'string') {
        const created = await create(app, owner, { definition });
        expect([201, 409]).toContain(created.status);
      }
    }
    // Both kinds were met: the mutations reach the validator's refusals and its acceptances.
    expect(outcomes.saved).toBeGreaterThan(5);
    expect(outcomes.refused).toBeGreaterThan(50);
  }, 60_000);
});

describe('evaluation', () => {
  test('names outside the calculator’s keys reach nothing; keys like constructor are plain keys', async () => {
    using app = testApp();
    const owner = await app.signup();
    const definition = paint({
      id: 'odd-keys',
      inputs: [{ kind: 'number', key: 'constructor', label: 'C', min: 0, max: 100, default: 1 }],
      variables: [],
      outputs: [{ key: 'toString', label: 'T', formula: 'constructor * 2' }],
      tables: {},
    });
    expect((await create(app, owner, { definition })).status).toBe(201);
    const answer = await app.request('POST', `${BASE}/odd-keys/evaluate`, {
      token: owner.token,
      // Raw JSON: an object literal's __proto__ would set a prototype, not a key.
      body: '{"inputs": {"constructor": 21, "__proto__": 5}, "draft": true}',
    });
    expect(answer.json).toEqual({ outputs: { toString: 42 } });
  });

  test('left-out inputs take their defaults; an invalid value empties every output; no finite number is null', async () => {
    using app = testApp();
    const owner = await app.signup();
    const definition = paint({
      outputs: [...EXAMPLE_DEFINITION.outputs, { key: 'perDay', label: 'Per day', formula: 'surface / (area - 60)' }],
    });
    await create(app, owner, { definition });
    const run = async (inputs: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      (
        await app.request('POST', `${BASE}/paint-quote/evaluate`, {
          token: owner.token,
          body: { inputs, draft: true, ...extra },
        })
      ).json;
    expect(await run({})).toEqual({ outputs: { total: 720, days: 2, perDay: null } });
    expect(await run({ area: 100 })).toEqual({ outputs: { total: 1140, days: 3, perDay: 2.5 } });
    expect(await run({ area: 1 })).toEqual({ outputs: { total: null, days: null, perDay: null } });
    expect(await run({ finish: 'satin' })).toEqual({ outputs: { total: null, days: null, perDay: null } });
    const imperial = await app.request('POST', `${BASE}/paint-quote/evaluate`, {
      token: owner.token,
      body: { inputs: {}, draft: true, units: 'imperial' },
    });
    expect(imperial.status).toBe(400);
    expect(imperial.json.error.message).toContain('metric units only');
    const badValue = await app.request('POST', `${BASE}/paint-quote/evaluate`, {
      token: owner.token,
      body: { inputs: { area: [1] } },
    });
    expect(badValue.status).toBe(400);
    expect(badValue.json.error.code).toBe('invalid_request');
  });
});

describe('plan limits', () => {
  test('Free allows 1 by default: the second is 403 plan_limit naming Base; deleting frees the place', async () => {
    using app = testApp();
    const owner = await app.signup();
    expect((await create(app, owner, { definition: paint() })).status).toBe(201);
    const refused = await create(app, owner, { from: 'loan' });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('plan_limit');
    expect(refused.json.error.message).toStartWith(
      'The Free plan allows 1 calculator of your own, and this account has 1. The Base plan allows 10:',
    );
    expect(refused.json.error.details).toEqual({ plan: 'free', limit: 1, planWithMore: 'base' });
    await app.request('DELETE', `${BASE}/paint-quote`, { token: owner.token });
    expect((await create(app, owner, { from: 'loan' })).status).toBe(201);
  });

  test('each plan at its boundary (flags and environment); a downgrade keeps every calculator serving', async () => {
    using app = testApp({ flags: { 'calculators-base': 3 }, env: { CALC_CALCULATORS_EXTRA: '4' } });
    const owner = await app.signup();
    await app.accounts.setPlan(owner.id, 'base');
    for (let i = 1; i <= 3; i++)
      expect((await create(app, owner, { definition: paint({ id: `quote-${i}` }) })).status).toBe(201);
    const atBase = await create(app, owner, { definition: paint({ id: 'quote-4' }) });
    expect(atBase.status).toBe(403);
    expect(atBase.json.error.message).toContain('The Extra plan allows 4:');
    await app.accounts.setPlan(owner.id, 'extra');
    expect((await create(app, owner, { definition: paint({ id: 'quote-4' }) })).status).toBe(201);
    const atExtra = await create(app, owner, { definition: paint({ id: 'quote-5' }) });
    expect(atExtra.status).toBe(403);
    expect(atExtra.json.error.message).toContain('No plan allows more.');
    expect(atExtra.json.error.details).toEqual({ plan: 'extra', limit: 4, planWithMore: null });

    await app.request('POST', `${BASE}/quote-4/publish`, { token: owner.token });
    await app.accounts.setPlan(owner.id, 'free');
    // Existing ones stay: listed, edited, published and evaluated; a new one is refused.
    expect((await app.request('GET', BASE, { token: owner.token })).json.calculators).toHaveLength(4);
    const edited = await app.request('PUT', `${BASE}/quote-4`, {
      token: owner.token,
      body: { definition: paint({ id: 'quote-4', title: 'Quote four' }) },
    });
    expect(edited.status).toBe(200);
    expect((await app.request('POST', `${BASE}/quote-4/publish`, { token: owner.token })).json.publishedVersion).toBe(
      2,
    );
    expect(
      (await app.request('POST', `${BASE}/quote-4/evaluate`, { token: owner.token, body: { inputs: {} } })).json,
    ).toEqual({ outputs: { total: 720, days: 2 } });
    const downgraded = await create(app, owner, { definition: paint({ id: 'quote-6' }) });
    expect(downgraded.status).toBe(403);
    expect(downgraded.json.error.message).toStartWith(
      'The Free plan allows 1 calculator of your own, and this account has 4. No plan allows more.',
    );
  });

  test('creations racing for the last two places: exactly two win', async () => {
    using app = testApp({ flags: { 'calculators-free': 3 } });
    const owner = await app.signup();
    await create(app, owner, { definition: paint({ id: 'first' }) });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create(app, owner, { definition: paint({ id: `race-${i}` }) })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 403, 403, 403, 403]);
    expect(await app.count('custom_calculators WHERE account_id = $1', owner.id)).toBe(3);
  });
});

describe('isolation between accounts', () => {
  test("one owner never sees or changes another's calculators; the same id lives in both", async () => {
    using app = testApp();
    const alice = await app.signup();
    const bob = await app.signup();
    await create(app, alice, { definition: paint() });
    await app.request('POST', `${BASE}/paint-quote/publish`, { token: alice.token });

    expect((await app.request('GET', BASE, { token: bob.token })).json).toEqual({ calculators: [] });
    for (const [method, path, body] of [
      ['GET', `${BASE}/paint-quote`, undefined],
      ['PUT', `${BASE}/paint-quote`, { definition: paint({ title: 'Bob was here' }) }],
      ['DELETE', `${BASE}/paint-quote`, undefined],
      ['POST', `${BASE}/paint-quote/publish`, undefined],
      ['GET', `${BASE}/paint-quote/versions`, undefined],
      ['POST', `${BASE}/paint-quote/versions/1/restore`, undefined],
      ['POST', `${BASE}/paint-quote/evaluate`, { inputs: {} }],
      ['POST', `${BASE}/paint-quote/evaluate`, { inputs: {}, draft: true }],
      ['POST', BASE, { from: 'paint-quote' }],
    ] as const) {
      const answer = await app.request(method, path, { token: bob.token, body });
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 404 });
    }
    const alices = await app.request('GET', `${BASE}/paint-quote`, { token: alice.token });
    expect(alices.json).toMatchObject({ status: 'published', draft: EXAMPLE_DEFINITION });

    // Bob's own paint-quote is his alone.
    const bobs = await create(app, bob, { definition: paint({ title: "Bob's quote" }) });
    expect(bobs.status).toBe(201);
    expect((await app.request('GET', `${BASE}/paint-quote`, { token: alice.token })).json.draft.title).toEqual(
      EXAMPLE_DEFINITION.title,
    );
  });

  test('deleting the account deletes its calculators and versions, and only its own', async () => {
    using app = testApp();
    const alice = await app.signup();
    const bob = await app.signup();
    for (const owner of [alice, bob]) {
      await create(app, owner, { definition: paint() });
      await app.request('POST', `${BASE}/paint-quote/publish`, { token: owner.token });
    }
    const deleted = await app.request('DELETE', '/v1/account', {
      token: alice.token,
      body: { password: alice.password },
    });
    expect(deleted.status).toBe(200);
    expect(await rowsOf(app, alice.id)).toEqual({ calculators: 0, versions: 0 });
    expect(await rowsOf(app, bob.id)).toEqual({ calculators: 1, versions: 1 });
  });
});
