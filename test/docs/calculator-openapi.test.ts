/**
 * /openapi.json describes an owner's calculator in full: the definition as its TypeBox
 * schema types it (every input kind, variables, outputs, tables; no untyped object left),
 * with a complete calculator as the example, so a client generated from the document
 * builds a definition without casts; and the documented examples work as documented.
 */
import { describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { EXAMPLE_DEFINITION } from '../../src/definition/example.ts';
import { CatalogueCalculator } from '../../src/calculators/schema.ts';
import { Definition } from '../../src/definition/schema.ts';
import { validateDefinition } from '../../src/definition/validate.ts';
import { forClients } from '../../src/http/openapi.ts';
import { followed } from '../helpers/openapi-check.ts';
import { testApp } from '../helpers/test-app.ts';

type Schema = Record<string, any>;
const BASE = '/v1/account/calculators';
const DEFINITION_REF = '#/components/schemas/Definition';
const CATALOGUE_REF = '#/components/schemas/CatalogueCalculator';

/** Where in `doc` a schema is written out that is `shape` but for its annotations (description, examples). */
function copiesOf(shape: Schema, node: unknown, where = '#'): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const bare = ({ description: _d, examples: _e, ...rest }: Schema) => rest;
  if (Bun.deepEquals(bare(node as Schema), bare(shape))) return [where];
  return Object.entries(node).flatMap(([key, child]) => copiesOf(shape, child, `${where}/${key}`));
}

async function openApi() {
  using app = testApp();
  return (await app.request('GET', '/openapi.json')).json;
}

/**
 * Every place under a JSON schema where a value is left untyped or an object open to any
 * field, by path; a `$ref` is checked as the schema it names in `doc`.
 */
function untyped(node: Schema, where: string, doc: Schema = {}): string[] {
  if (node.$ref) return untyped(followed(doc, node), `${where}→${node.$ref.split('/').pop()}`, doc);
  const found: string[] = [];
  if (!node.type && !node.anyOf && node.const === undefined) found.push(`${where}: no type`);
  const fieldsTyped =
    node.additionalProperties === false || node.patternProperties || typeof node.additionalProperties === 'object';
  if (node.type === 'object' && !fieldsTyped) found.push(`${where}: open to any field`);
  const children: [string, Schema][] = [
    ...Object.entries((node.properties ?? {}) as Record<string, Schema>).map(
      ([k, v]) => [`.${k}`, v] as [string, Schema],
    ),
    ...Object.values((node.patternProperties ?? {}) as Record<string, Schema>).map(
      (v) => ['{name}', v] as [string, Schema],
    ),
    ...((node.anyOf ?? []) as Schema[]).map((v, i) => [`|${i}`, v] as [string, Schema]),
    // A tuple (a table's [threshold, value] row): its items one by one.
    ...((node.prefixItems ?? []) as Schema[]).map((v, i) => [`[${i}]`, v] as [string, Schema]),
  ];
  if (typeof node.items === 'object' && !Array.isArray(node.items)) children.push(['[]', node.items]);
  if (typeof node.additionalProperties === 'object') children.push(['{any}', node.additionalProperties]);
  return [...found, ...children.flatMap(([step, child]) => untyped(child, `${where}${step}`, doc))];
}

describe('the definition in /openapi.json', () => {
  test('is the TypeBox schema in full, every object typed, with a complete calculator as its example', async () => {
    const doc = await openApi();
    const create = doc.paths[BASE].post;
    // Written once, under components, and referred to: a client gets one named type.
    const site = create.requestBody.content['application/json'].schema.anyOf[0].properties.definition;
    expect(site).toEqual({ $ref: DEFINITION_REF });
    const documented = followed(doc, site);
    expect(documented).toBe(doc.components.schemas.Definition);
    const { examples, ...shape } = documented;
    // As the document writes every schema for clients (a tuple as `prefixItems`).
    const { examples: _none, ...typebox } = forClients(JSON.parse(JSON.stringify(Definition)));
    expect(shape).toEqual(typebox);
    expect(examples).toEqual([EXAMPLE_DEFINITION]);
    expect(untyped(shape, 'definition')).toEqual([]);
    // The self-check: what an untyped description looks like is caught.
    expect(untyped({ type: 'object', properties: { a: {} } }, 'x')).toEqual(['x: open to any field', 'x.a: no type']);
    // No copy of it is left written out anywhere else in the document.
    expect(copiesOf(typebox, doc)).toEqual(['#/components/schemas/Definition']);
    // The self-check: a copy written out is found.
    const copied = { ...doc, extra: { schema: { ...typebox, description: 'another' } } };
    expect(copiesOf(typebox, copied)).toEqual(['#/components/schemas/Definition', '#/extra/schema']);

    // Inputs: the three kinds, each told apart by its `kind`; outputs, variables and tables typed.
    const inputKinds = shape.properties.inputs.items.anyOf.map((input: Schema) => input.properties.kind.const);
    expect(inputKinds).toEqual(['number', 'select', 'toggle']);
    expect(Object.keys(shape.properties.outputs.items.properties)).toEqual(
      expect.arrayContaining(['key', 'label', 'formula', 'format', 'bands', 'bandsBy', 'primary']),
    );
    expect(shape.properties.variables.items.required).toEqual(['key', 'formula']);
    expect(shape.properties.tables.patternProperties).toBeDefined();

    // The example is a real calculator: the schema and the validator both accept it.
    expect(Value.Check(Definition, examples[0])).toBe(true);
    expect(validateDefinition(examples[0])).toEqual([]);
    expect(create.requestBody.content['application/json'].example).toEqual({ definition: EXAMPLE_DEFINITION });
    // Answers carry the same typed definition, draft and published alike.
    const answer = doc.paths[`${BASE}/{id}`].get.responses['200'].content['application/json'];
    expect(answer.schema.properties.draft).toEqual({ $ref: DEFINITION_REF });
    expect(answer.schema.properties.published.anyOf).toEqual([{ $ref: DEFINITION_REF }, { type: 'null' }]);
    expect(answer.example.draft).toEqual(EXAMPLE_DEFINITION);
  });

  test("the documented requests, sent as they are, get the documented answers' shapes and values", async () => {
    const doc = await openApi();
    const example = (path: string, method: string) =>
      doc.paths[path][method].requestBody.content['application/json'].example;
    const answered = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status].content['application/json'].example;
    using app = testApp();
    const { token } = await app.signup();
    const created = await app.request('POST', BASE, { token, body: example(BASE, 'post') });
    expect(created.status).toBe(201);
    const shape = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.slice(0, 1).map(shape)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]))
          : typeof value;
    // A new draft has no published version yet; the example shows one.
    const unpublished = { published: null, publishedVersion: null };
    expect(shape({ ...created.json, ...unpublished })).toEqual(
      shape({ ...answered(BASE, 'post', '201'), ...unpublished }),
    );
    const evaluated = await app.request('POST', `${BASE}/paint-quote/evaluate`, {
      token,
      body: example(`${BASE}/{id}/evaluate`, 'post'),
    });
    expect(evaluated.json).toEqual(answered(`${BASE}/{id}/evaluate`, 'post', '200'));
    const published = await app.request('POST', `${BASE}/paint-quote/publish`, { token });
    expect(shape(published.json)).toEqual(shape(answered(`${BASE}/{id}/publish`, 'post', '200')));
  });
});

describe('the load answer in /openapi.json', () => {
  test("types the calculator: a template's public shape or an owner's {id, title, definition}, with the full definition", async () => {
    const doc = await openApi();
    /** A schema without its examples. */
    const typed = (schema: Schema) => {
      const { examples: _examples, ...shape } = schema;
      return shape;
    };
    const catalogue = forClients(JSON.parse(JSON.stringify(CatalogueCalculator)));
    // The catalogue's shape as written for clients, its definition by name.
    const named = { ...catalogue, properties: { ...catalogue.properties, definition: { $ref: DEFINITION_REF } } };
    expect(doc.components.schemas.CatalogueCalculator).toEqual(named);
    const one = doc.paths['/v1/calculators/{calcId}'].get.responses['200'].content['application/json'].schema;
    expect(one.properties.calculator.$ref).toBe(CATALOGUE_REF);
    for (const [path, answer] of [
      ['/v1/widget/load', doc.paths['/v1/widget/load'].post.responses['200']],
      ['/v1/widget/preview', doc.paths['/v1/widget/preview'].post.responses['200']],
    ] as const) {
      const calculator = answer.content['application/json'].schema.properties.calculator;
      const [template, own] = calculator.anyOf as Schema[];
      // A template's whole public shape, as GET /v1/calculators/:calcId shows it, with its definition.
      expect({ path, template }).toEqual({ path, template: { $ref: CATALOGUE_REF } });
      expect(followed(doc, template ?? {}).required).toEqual(
        expect.arrayContaining(['id', 'title', 'fields', 'results', 'definition']),
      );
      expect(own?.additionalProperties).toBe(false);
      expect(Object.keys(own?.properties)).toEqual(['id', 'title', 'definition']);
      expect(own?.properties.definition).toEqual({ $ref: DEFINITION_REF });
      expect(untyped(typed(own as Schema), 'calculator', doc)).toEqual([]);
      // Each example is what the routes answer: a template's and an owner's, both valid definitions.
      expect(validateDefinition(calculator.examples[0].definition)).toEqual([]);
      expect(own?.examples[0]).toEqual({
        id: EXAMPLE_DEFINITION.id,
        title: EXAMPLE_DEFINITION.title,
        definition: EXAMPLE_DEFINITION,
      });
    }
    const preview = doc.paths['/v1/widget/preview'].post.requestBody.content['application/json'].schema;
    expect(preview.properties.draft).toMatchObject({ type: 'boolean' });
  });
});
