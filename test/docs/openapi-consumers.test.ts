/**
 * /openapi.json as the tools its consumers use read it: Spectral's `oas` ruleset finds
 * nothing, counters are integers, every tag is declared with its words, every operation
 * says what it does, error details are typed by code, and what the routes take and send
 * beside JSON (text/plain bodies, optional bodies, caching headers, language packs) is in it.
 */
import { describe, expect, test } from 'bun:test';
import { Document, type RulesetDefinition, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { ERROR_STATUS } from '../../src/errors.ts';
import { ERROR_DETAILS } from '../../src/http/model.ts';
import { followed } from '../helpers/openapi-check.ts';
import { testApp } from '../helpers/test-app.ts';

type Node = Record<string, any>;

async function openApiDocument(): Promise<Node> {
  using app = testApp();
  return (await app.request('GET', '/openapi.json')).json;
}

function operationsOf(doc: Node) {
  return Object.entries(doc.paths as Node).flatMap(([path, ops]) =>
    Object.entries(ops as Node).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op: op as Node })),
  );
}

/** Every schema node under `node`, with its JSON path. */
function nodes(node: unknown, where = '#'): [string, Node][] {
  if (typeof node !== 'object' || node === null) return [];
  return [[where, node as Node], ...Object.entries(node).flatMap(([key, child]) => nodes(child, `${where}/${key}`))];
}

describe('/openapi.json for its consumers', () => {
  test("Spectral's oas ruleset reports no error and no warning", async () => {
    const doc = await openApiDocument();
    const spectral = new Spectral();
    // The rulesets package types its rule functions more narrowly than the core's ruleset type
    // takes them (the same functions, run by the same core): the one cast here.
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const results = await spectral.run(new Document(JSON.stringify(doc), Json));
    // Severity 0 is an error, 1 a warning.
    const found = results
      .filter((result) => result.severity <= 1)
      .map((result) => `${result.code} ${result.path.join('.')}: ${result.message}`);
    expect(found).toEqual([]);
    // The self-check: the ruleset does report what it should, here an operation without tags.
    const { tags: _tags, ...untagged } = doc.paths['/healthz'].get;
    const broken = { ...doc, paths: { ...doc.paths, '/healthz': { get: untagged } } };
    const codes = (await spectral.run(new Document(JSON.stringify(broken), Json))).map((result) => result.code);
    expect(codes).toContain('operation-tags');
  }, 120_000);

  test('counters are integers, never a string-or-number union', async () => {
    const doc = await openApiDocument();
    const coercing = nodes(doc).filter(([, node]) => node.format === 'integer' || node.format === 'numeric');
    expect(coercing.map(([where]) => where)).toEqual([]);
    const json = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status].content['application/json'].schema;
    const usage = json('/v1/account', 'get', '200').properties.usage.properties;
    expect([usage.used.type, usage.limit.type]).toEqual(['integer', 'integer']);
    const report = json('/v1/usage', 'get', '200').properties;
    expect(report.total.type).toBe('integer');
    expect(report.rows.items.properties.loads.type).toBe('integer');
    expect(report.webhook.items.properties.calls.type).toBe('integer');
    const tested = json('/v1/widget-config/{calcId}/test-webhook', 'post', '200').properties;
    expect(tested.httpStatus.anyOf.map((branch: Node) => branch.type)).toEqual(['integer', 'null']);
  });

  test('every operation has a summary, a description and declared tags', async () => {
    const doc = await openApiDocument();
    const declared = new Map((doc.tags as Node[]).map((tag) => [tag.name, tag.description]));
    for (const [name, description] of declared) expect(typeof description, name).toBe('string');
    for (const { where, op } of operationsOf(doc)) {
      expect(op.summary, where).toBeString();
      expect(op.description, where).toStartWith(op.summary);
      expect(op.tags.length, where).toBeGreaterThan(0);
      for (const tag of op.tags) expect(declared.has(tag), `${where}: tag ${tag}`).toBe(true);
    }
  });

  test('error details are typed by code; other codes carry none', async () => {
    const doc = await openApiDocument();
    const shapes = doc.components.schemas.Error.properties.error.anyOf as Node[];
    const [plain = {}, ...detailed] = shapes;
    expect(plain.properties.details).toBeUndefined();
    expect(plain.additionalProperties).toBe(false);
    const withDetails = detailed.map((shape) => shape.properties.code.const);
    expect(withDetails).toEqual(Object.keys(ERROR_DETAILS));
    const codes = [...plain.properties.code.anyOf.map((code: Node) => code.const), ...withDetails];
    expect(codes.sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    const definition = detailed.find((shape) => shape.properties.code.const === 'invalid_definition');
    // The definition's problems by their name, the type a client reads them as.
    expect(definition?.properties.details.items).toEqual({ $ref: '#/components/schemas/Problem' });
    expect(Object.keys(doc.components.schemas.Problem.properties)).toEqual(['path', 'message', 'position']);
    const request = detailed.find((shape) => shape.properties.code.const === 'invalid_request');
    const [fields, redacted] = request?.properties.details.anyOf ?? [];
    expect(Object.keys(fields.items.properties)).toEqual(['field', 'message']);
    expect(Object.keys(redacted.properties)).toEqual(['headers']);
  });

  test('the catalogue and load answers type the calculator and its definition', async () => {
    const doc = await openApiDocument();
    const load = doc.paths['/v1/widget/load'].post.responses['200'].content['application/json'].schema;
    // A catalogue calculator or an owner's; the catalogue's is the public shape with its definition.
    const [catalogue] = load.properties.calculator.anyOf;
    // Named once under components: a client gets one CatalogueCalculator and one Definition type.
    expect(catalogue).toEqual({ $ref: '#/components/schemas/CatalogueCalculator' });
    const calculator = followed(doc, catalogue);
    expect(calculator.required).toEqual(expect.arrayContaining(['id', 'fields', 'results', 'definition']));
    expect(calculator.properties.definition).toEqual({ $ref: '#/components/schemas/Definition' });
    expect(followed(doc, calculator.properties.definition).properties.inputs.items.anyOf).toHaveLength(3);
    const one = doc.paths['/v1/calculators/{calcId}'].get.responses['200'].content['application/json'].schema;
    expect(one.properties.calculator.$ref).toBe(catalogue.$ref);
  });

  test('headers, media types and optional bodies as the server answers and takes them', async () => {
    const doc = await openApiDocument();
    for (const { where, op } of operationsOf(doc)) {
      for (const [status, answer] of Object.entries(op.responses as Node)) {
        const headers = answer.$ref
          ? doc.components.responses[answer.$ref.split('/').pop()].headers
          : (answer as Node).headers;
        expect(headers?.['X-Request-Id'], `${where} ${status}`).toBeDefined();
        if (status === '429' || status === '503') expect(headers['Retry-After'], `${where} ${status}`).toBeDefined();
      }
    }
    const pack = doc.paths['/widget/i18n/{file}'].get.responses;
    expect(pack['200'].content['application/json; charset=utf-8'].schema.type).toBe('object');
    expect(Object.keys(pack['304'].headers)).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
    expect(pack['404'].$ref).toBe('#/components/responses/Error404');
    const load = doc.paths['/v1/widget/load'].post.requestBody;
    expect(Object.keys(load.content)).toEqual(['application/json', 'text/plain']);
    expect(load.required).toBe(true);
    expect(doc.paths['/v1/widget-config/{calcId}/test-webhook'].post.requestBody.required).toBe(false);
    const login = doc.paths['/v1/auth/login'].post.responses;
    expect(Object.keys(login)).toEqual(expect.arrayContaining(['400', '401', '413', '429', '503']));
    const secret = doc.paths['/v1/account/signing-secret'].get.responses['200'].headers;
    expect(secret['Cache-Control'].schema.const).toBe('no-store');
  });
});
