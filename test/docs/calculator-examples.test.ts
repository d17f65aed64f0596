/**
 * The worked examples of docs/calculators.md, as written: each definition passes the
 * validator, is created and published through the real API, and evaluates to the
 * results stated under it (bands included, as the widget would label the values).
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { textIn } from '../../src/definition/text.ts';
import type { Definition } from '../../src/definition/types.ts';
import { validateDefinition } from '../../src/definition/validate.ts';
import { bandOf } from '../../src/definition/view.ts';
import { ROOT } from '../helpers/process.ts';
import { testApp } from '../helpers/test-app.ts';

const DOC = readFileSync(join(ROOT, 'docs', 'calculators.md'), 'utf8');

/** The JSON block after `<!-- KIND: NAME -->`. */
function block<T>(kind: 'example' | 'results', name: string): T {
  const match = new RegExp(`<!-- ${kind}: ${name} -->\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(DOC);
  if (!match?.[1]) throw new Error(`docs/calculators.md has no ${kind} ${name}`);
  return JSON.parse(match[1]) as T;
}

interface Stated {
  inputs: Record<string, number | string | boolean>;
  outputs: Record<string, number | null>;
  bands?: Record<string, string>;
}

const EXAMPLES = ['fence-quote', 'car-loan', 'waist-to-height'];

test('the page holds the three worked examples, and the features they are there to show', () => {
  const names = [...DOC.matchAll(/<!-- example: ([a-z-]+) -->/g)].map((match) => match[1]);
  expect(names).toEqual(EXAMPLES);
  const [fence, loan, waist] = EXAMPLES.map((name) => JSON.stringify(block<Definition>('example', name)));
  expect(fence).toContain('lookup(');
  expect(loan).toContain('pmt(');
  expect(waist).toContain('"bands"');
});

describe.each(EXAMPLES)('%s', (name) => {
  const definition = block<Definition>('example', name);
  const results = block<Stated[]>('results', name);

  test('is a valid definition under its own name', () => {
    expect(validateDefinition(definition)).toEqual([]);
    expect(definition.id).toBe(name);
  });

  test('created and published through the API, it evaluates to the stated results', async () => {
    using app = testApp();
    const { token } = await app.signup();
    expect((await app.request('POST', '/v1/account/calculators', { token, body: { definition } })).status).toBe(201);
    expect((await app.request('POST', `/v1/account/calculators/${name}/publish`, { token })).status).toBe(200);
    expect(results.length).toBeGreaterThan(2);
    for (const stated of results) {
      const answer = await app.request('POST', `/v1/account/calculators/${name}/evaluate`, {
        token,
        body: { inputs: stated.inputs },
      });
      expect({ inputs: stated.inputs, outputs: answer.json.outputs }).toEqual({
        inputs: stated.inputs,
        outputs: stated.outputs,
      });
      for (const [key, label] of Object.entries(stated.bands ?? {})) {
        const output = definition.outputs.find((candidate) => candidate.key === key);
        const band = output && bandOf(output, answer.json.outputs[key], stated.inputs);
        expect(band && textIn(band.label, 'en')).toBe(label);
      }
    }
  });
});
