/**
 * Checks an answer of the API against /openapi.json as a client generated from it would
 * read it: its status must be described for the operation, every header it sends (but the
 * transport's own) described with a valid value, every required header present, and its
 * body of a described media type that matches the described schema. The API tests' request
 * helpers (test-app.ts, listening-app.ts) run it on every answer, so a route that answers
 * what its description does not say fails the test that drove it.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** JSON itself (application/json, …+json); JSON lines (application/x-ndjson) is text, line by line. */
const isJson = (mediaType: string): boolean =>
  /^application\/(?:[\w.-]+\+)?json$/.test(mediaType.split(';')[0]?.trim() ?? '');

/** Headers of HTTP itself, of CORS and of browser hardening: the same on every route, described in docs/api.md. */
const TRANSPORT_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'vary',
  'x-content-type-options',
  'cross-origin-resource-policy',
  'content-security-policy',
]);
const isTransport = (name: string) => TRANSPORT_HEADERS.has(name) || name.startsWith('access-control-');

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

type Json = Record<string, any>;

/** `#/a/b` in `doc`, with JSON Pointer escapes. */
function at(doc: Json, pointer: string): Json {
  return pointer
    .slice(2)
    .split('/')
    .reduce((node, step) => node?.[step.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
}

/** The schema a `$ref` node names in `doc` (followed to the end); any other node as it is. */
export function followed(doc: Json, node: Json): Json {
  return typeof node?.$ref === 'string' && node.$ref.startsWith('#/') ? followed(doc, at(doc, node.$ref)) : node;
}

const pointerStep = (step: string) => step.replaceAll('~', '~0').replaceAll('/', '~1');

/** A checker for one document: `check` lists what is wrong with an answer ([] when it is described). */
export function openApiChecker(doc: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const validatorAt = (pointer: string) => {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi.json${pointer}` });
      compiled.set(pointer, validate);
    }
    return validate;
  };
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
  }));
  /** A `$ref` followed to what it names, with the pointer where that is. */
  const resolve = (pointer: string): [Json, string] => {
    const node = at(doc, pointer);
    return typeof node?.$ref === 'string' ? resolve(node.$ref) : [node, pointer];
  };

  function check(method: string, url: string, answer: Answer): string[] {
    const path = new URL(url, 'http://calc.test').pathname;
    const where = `${method} ${path} → ${answer.status}`;
    // A preflight is CORS's, and HEAD is GET's; neither is an operation.
    if (method === 'OPTIONS' || method === 'HEAD') return [];
    const matched = templates.find(({ pattern }) => pattern.test(path));
    const operation = matched && doc.paths[matched.template][method.toLowerCase()];
    // No operation here (an unknown path or method, or a page outside the API): its 404 is
    // still the error envelope. Hidden routes (/docs, the dashboard) are not the API's.
    if (!operation) {
      if (answer.status !== 404) return [];
      return bodyProblems(where, '#/components/responses/Error404', answer);
    }
    const base = `#/paths/${pointerStep(matched.template)}/${method.toLowerCase()}/responses`;
    if (!operation.responses[answer.status]) return [`${where}: the status is not described`];
    return bodyProblems(where, `${base}/${answer.status}`, answer);
  }

  function bodyProblems(where: string, pointer: string, answer: Answer): string[] {
    const [response, responsePointer] = resolve(pointer);
    const problems: string[] = [];
    const described = Object.fromEntries(
      Object.keys((response.headers ?? {}) as Json).map((name) => [name.toLowerCase(), name]),
    );
    for (const [name, value] of answer.headers) {
      if (isTransport(name)) continue;
      const declared = described[name];
      if (!declared) {
        problems.push(`${where}: header ${name} is not described`);
        continue;
      }
      const [header, headerPointer] = resolve(`${responsePointer}/headers/${pointerStep(declared)}`);
      if (header.schema && !validatorAt(`${headerPointer}/schema`)(value))
        problems.push(`${where}: header ${name}: ${JSON.stringify(value)} does not match its schema`);
    }
    for (const [lower, declared] of Object.entries(described)) {
      const [header] = resolve(`${responsePointer}/headers/${pointerStep(declared)}`);
      if (header.required && !answer.headers.has(lower)) problems.push(`${where}: header ${declared} is missing`);
    }
    const content = (response.content ?? {}) as Json;
    if (answer.text === '') {
      // An empty body is right only where none is described.
      // A streamed file (CSV, JSON lines) may be empty; a JSON answer never is.
      const described = Object.keys(content);
      if (described.length > 0 && answer.status !== 304 && described.every(isJson))
        problems.push(`${where}: the body is empty`);
      return problems;
    }
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    const key = Object.keys(content).find((type) => type.split(';')[0]?.trim() === mediaType);
    if (!key) return [...problems, `${where}: a ${mediaType || 'untyped'} body is not described`];
    if (!isJson(mediaType) || !content[key].schema) return problems;
    const validate = validatorAt(`${responsePointer}/content/${pointerStep(key)}/schema`);
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [...problems, `${where}: the body is not JSON`];
    }
    if (!validate(body))
      problems.push(
        `${where}: the body does not match its schema: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`,
      );
    return problems;
  }

  return { check };
}

let shared: Promise<ReturnType<typeof openApiChecker>> | undefined;
let checked = 0;

/** How many answers `assertDescribed` has checked in this process (the hook's own test reads it). */
export const answersChecked = () => checked;

/**
 * Throws when `answer` is not what /openapi.json describes for this request. The document
 * is fetched once per test process, from the first app that asks (every app serves the same
 * operations).
 */
export async function assertDescribed(
  fetchDocument: () => Promise<Json>,
  method: string,
  url: string,
  answer: Answer,
): Promise<void> {
  shared ??= fetchDocument().then(openApiChecker);
  const problems = (await shared).check(method, url, answer);
  checked++;
  if (problems.length > 0) throw new Error(`The answer is not what /openapi.json describes:\n${problems.join('\n')}`);
}
