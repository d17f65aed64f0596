import { OptionalKind } from '@sinclair/typebox';
import { sample } from 'openapi-sampler';
import { ERROR_STATUS, type ErrorCode } from '../errors.ts';
import { shellQuote } from '../shell-word.ts';
import { ERROR_DOCS, ERROR_EXAMPLES } from './error-docs.ts';
import { ErrorResponse, EXAMPLE } from './model.ts';
import { NAMED_SCHEMAS, withNamedSchemas } from './named-schemas.ts';

export interface RouteLike {
  method: string;
  path: string;
  /** The body rules of the route's group: widget routes also take `text/plain` bodies. */
  bodyRules?: { widget: boolean };
  hooks: {
    body?: unknown;
    params?: unknown;
    query?: unknown;
    response?: unknown;
    /** `responses` (OpenAPI form): answers documented, not validated (a pre-built body). */
    detail?: {
      summary?: string;
      description?: string;
      hide?: boolean;
      tags?: string[];
      security?: unknown;
      responses?: Record<string, unknown>;
      /** Headers the route's module sets on each successful answer (src/http/no-store.ts). */
      'x-answer-headers'?: Record<string, unknown>;
    };
  };
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No content',
  '400': 'Invalid request',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'Not found',
  '409': 'Conflict',
  '413': 'Payload too large',
  '422': 'Unprocessable',
  '429': 'Too many requests',
  '500': 'Internal error',
  '503': 'Not ready',
};

const JSON_TYPE = 'application/json';
const ERROR_SCHEMA = plain(ErrorResponse);
const errorRef = (status: string) => ({ $ref: `#/components/responses/Error${status}` });
const REQUEST_ID = { $ref: '#/components/headers/X-Request-Id' };
const RETRY_AFTER = { $ref: '#/components/headers/Retry-After' };

/**
 * What each tag groups, for the reference's sections. A route with a tag missing here
 * fails the document's test: every tag an operation uses is declared, with its words.
 */
const TAGS: Record<string, string> = {
  accounts: 'Sign up, sign in, the account, its keys, password, signing secret and limits (session token).',
  domains: "The origins allowed to embed the account's calculators (session token).",
  calculators: "The public catalogue, and the account's own calculators: drafts, versions, publishing.",
  widget: 'What embedding pages call with the public API key, and the embed script with its files.',
  'widget-config': 'Per-calculator widget settings: the pre-fill webhook (session token).',
  usage: 'Loads, webhook calls, refusals and the funnel, per day (session token).',
  results: "The results endpoint: where visitors' results are delivered, signed (session token).",
  health: 'Liveness and readiness, for load balancers and orchestrators.',
};

/**
 * The statuses any operation may answer by the conventions every route follows, beside
 * the ones its own schema names: a malformed body or parameter (400), a missing or bad
 * token where one is needed (401), nothing by the name in the path (404), a body over the
 * cap (413, checked on every route), a
 * bug (500), and a server that cannot reach its store or is shutting down (503).
 */
function conventionStatuses(route: RouteLike, needsToken: boolean): string[] {
  const { hooks } = route;
  const readsInput = hooks.body || hooks.params || hooks.query || route.method !== 'GET';
  const namesSomething = /:\w/.test(route.path);
  return [
    ...(readsInput ? ['400'] : []),
    ...(needsToken ? ['401'] : []),
    ...(namesSomething ? ['404'] : []),
    '413',
    '500',
    '503',
  ];
}

export interface ApiInfo {
  title: string;
  version: string;
  /** The server's public base URL: the document's server and its curl examples. */
  publicUrl: string;
}

/**
 * An OpenAPI 3.1 document built from the routes Elysia registered: the same TypeBox
 * schemas that validate requests describe them, so the document cannot drift. Error
 * answers are shared components (one per status, an example per code); every request
 * body, parameter and answer carries an example, sampled from its schema (whose `examples`
 * hold real values: the sampler's own filler, such as "string", would say nothing), and
 * every operation a curl sample built from those examples. The schemas routes share are
 * written once, under `components/schemas`, and referenced (named-schemas.ts).
 */
export function buildOpenApi(routes: RouteLike[], info: ApiInfo) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const { hooks } = route;
    if (hooks.detail?.hide || route.method === 'OPTIONS' || route.method === 'ALL') continue;
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    // Answers documented in `detail` (built by the handler itself) say more than the default.
    const responses: Record<string, unknown> = {
      ...responsesOf(hooks.response),
      ...withExamples(plain(hooks.detail?.responses) as Record<string, unknown> | undefined),
    };
    const security = hooks.detail?.security;
    for (const status of conventionStatuses(route, requiresToken(security))) responses[status] ??= errorRef(status);
    // Every answer names its request; a successful one carries the headers its module adds.
    const added = hooks.detail?.['x-answer-headers'];
    for (const [status, answer] of Object.entries(responses) as [string, { $ref?: string; headers?: object }][])
      if (!answer.$ref)
        answer.headers = { 'X-Request-Id': REQUEST_ID, ...(status.startsWith('2') ? added : {}), ...answer.headers };
    const summary = hooks.detail?.summary ?? `${route.method} ${path}`;
    const operation: Record<string, unknown> = {
      operationId: operationIdOf(route.method, route.path),
      summary,
      description: hooks.detail?.description ?? describe(summary, route, security),
      tags: hooks.detail?.tags ?? [tagOf(route.path)],
      responses: sortedByStatus(responses),
    };
    if (security) operation.security = security;
    const parameters = [...parametersOf(hooks.params, 'path'), ...parametersOf(hooks.query, 'query')];
    if (parameters.length > 0) operation.parameters = parameters;
    let body: unknown;
    if (hooks.body) {
      const schema = plain(hooks.body);
      body = exampleOf(schema);
      const content: Record<string, unknown> = { [JSON_TYPE]: { schema, example: body } };
      // The widget sends its JSON as text/plain: a CORS "simple request", without a preflight.
      if (route.bodyRules?.widget) content['text/plain'] = { schema, example: body };
      operation.requestBody = { required: !isOptional(hooks.body), content };
    }
    operation['x-codeSamples'] = [
      {
        lang: 'Shell',
        label: 'curl',
        source: curlSample({
          method: route.method,
          url: info.publicUrl + path,
          parameters,
          body,
          security: operation.security,
        }),
      },
    ];
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation;
  }
  const tags = [
    ...new Set(
      Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => (op as { tags: string[] }).tags)),
    ),
  ];
  const document = forClients({
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: apiDescription(info.publicUrl),
      // Each server is self-hosted: whoever runs it answers for it.
      contact: { name: 'The operator of this server', url: info.publicUrl },
    },
    servers: [{ url: info.publicUrl }],
    tags: tags.sort().map((name) => ({ name, description: TAGS[name] })),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The `token` that `POST /v1/auth/login` or `POST /v1/auth/signup` answers with.',
        },
      },
      schemas: { Error: ERROR_SCHEMA },
      headers: {
        'X-Request-Id': {
          description: "Names the request in the server's log: quote it when reporting a problem.",
          required: true,
          schema: { type: 'string', examples: [EXAMPLE.requestId] },
        },
        'Retry-After': {
          description: 'Seconds to wait before trying again (rate limits, a busy or unready server).',
          schema: { type: 'string', pattern: '^[0-9]+$', examples: ['42'] },
        },
      },
      responses: errorResponses(),
    },
    paths,
  });
  const named = Object.fromEntries(
    Object.entries(NAMED_SCHEMAS).map(([name, schema]) => [name, forClients(plain(schema) as Record<string, unknown>)]),
  );
  return withNamedSchemas(document, named);
}

/** Whether an operation's security requires the token (an empty requirement would make it optional). */
function requiresToken(security: unknown): boolean {
  return (
    Array.isArray(security) &&
    security.length > 0 &&
    security.every((requirement) => Object.keys(requirement as object).length > 0)
  );
}

/** An operation's description when its route gives none: what it does, and who may call it. */
function describe(summary: string, route: RouteLike, security: unknown): string {
  const caller = requiresToken(security)
    ? 'Needs the session token: `Authorization: Bearer <token>`.'
    : route.bodyRules?.widget
      ? "Called by embedding pages with the account's public API key (`pk_…`), from any origin that is on the account's domain list; the body may be sent as `text/plain`."
      : 'Needs no token.';
  return `${summary}. ${caller} Failures answer the error envelope with a code listed under each status.`;
}

/** Answers in status order, as a reader expects them. */
function sortedByStatus(responses: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/** Whether a TypeBox schema is wrapped in `Optional` (a body the route also takes absent). */
function isOptional(schema: unknown): boolean {
  return (schema as Record<symbol, unknown>)[OptionalKind] === 'Optional';
}

/**
 * The document in the forms clients generate code from. Elysia's `t.Integer` and
 * `t.Numeric` accept a numeric string too (for query strings): described as that union, a
 * counter would be typed `string | number`, so each is described as the number it is sent
 * as. A TypeBox tuple (`items` as a list, draft 7) is written as JSON Schema 2020-12 has
 * it, `prefixItems`.
 */
export function forClients<T>(node: T): T {
  if (Array.isArray(node)) return node.map(forClients) as T;
  if (typeof node !== 'object' || node === null) return node;
  const object = Object.fromEntries(Object.entries(node).map(([key, child]) => [key, forClients(child)]));
  const numeric = numericOf(object.anyOf);
  if (numeric) {
    const { anyOf: _coercion, ...annotations } = object;
    return { ...numeric, ...annotations } as T;
  }
  if (Array.isArray(object.items)) {
    // `items` stays, as what any item may be (`maxItems` keeps the tuple's length).
    const { items, additionalItems: _closed, ...rest } = object;
    const kinds = [...new Map((items as unknown[]).map((item) => [JSON.stringify(item), item])).values()];
    return { ...rest, prefixItems: items, items: kinds.length === 1 ? kinds[0] : { anyOf: kinds } } as T;
  }
  return object as T;
}

/** The number branch of Elysia's coercing union (a string in `integer`/`numeric` format, or the number). */
function numericOf(anyOf: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return undefined;
  const [text, number] = anyOf as Record<string, unknown>[];
  const coerces = text?.type === 'string' && (text.format === 'integer' || text.format === 'numeric');
  return coerces && (number?.type === 'integer' || number?.type === 'number') ? number : undefined;
}

/** One shared answer per error status, with an example for each code it can carry. */
function errorResponses(): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][])
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  const out: Record<string, unknown> = {};
  for (const [status, codes] of byStatus) {
    out[`Error${status}`] = {
      description: `${STATUS_TEXT[status] ?? status}: ${codes.map((code) => `\`${code}\``).join(', ')}`,
      headers:
        status === 429 || status === 503
          ? { 'X-Request-Id': REQUEST_ID, 'Retry-After': RETRY_AFTER }
          : { 'X-Request-Id': REQUEST_ID },
      content: {
        [JSON_TYPE]: {
          schema: { $ref: '#/components/schemas/Error' },
          examples: Object.fromEntries(
            codes.map((code) => [
              code,
              { summary: ERROR_DOCS[code], value: { error: { code, ...ERROR_EXAMPLES[code] } } },
            ]),
          ),
        },
      },
    };
  }
  return out;
}

/** `get_v1_calculators_calcId`: stable names for client generators. */
function operationIdOf(method: string, path: string): string {
  return `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+/g, '_').replace(/_$/, '')}`;
}

function exampleOf(schema: unknown): unknown {
  return sample(schema as Parameters<typeof sample>[0], { skipReadOnly: true, quiet: true });
}

/** Adds a sampled example to answers documented in OpenAPI form (`detail.responses`). */
function withExamples(responses: Record<string, unknown> | undefined) {
  if (!responses) return undefined;
  for (const answer of Object.values(responses) as {
    content?: Record<string, { schema?: unknown; example?: unknown }>;
  }[]) {
    const json = answer.content?.[JSON_TYPE];
    if (json?.schema !== undefined && json.example === undefined) json.example = exampleOf(json.schema);
  }
  return responses;
}

/**
 * The reference's introduction: how to get a token and call the API, with curl. Rendered
 * above the routes by /docs.
 */
function apiDescription(base: string): string {
  return `Embeddable calculators. Two kinds of routes:

- **Widget routes** (\`/v1/widget/*\`, \`/v1/calculators\`, \`/widget.js\`) are called by the pages
  that embed a calculator. They take the account's public API key (\`pk_…\`) in the body and
  answer any origin; the domain list decides which pages may use them.
- **Owner routes** take a session token: \`Authorization: Bearer <token>\`.

Every answer carries \`X-Request-Id\`; every error is \`{"error": {"code", "message", "details?"}}\`
with a code from the list under each route. Bodies are JSON, at most 64 KiB.

## Getting a token

Sign up (when the server allows it) or sign in; both answer with a \`token\` and its \`expiresAt\`:

\`\`\`sh
curl -s ${base}/v1/auth/signup -H 'Content-Type: application/json' \\
  -d '{"email": "owner@shop.example", "password": "correct horse battery"}'

curl -s ${base}/v1/auth/login -H 'Content-Type: application/json' \\
  -d '{"email": "owner@shop.example", "password": "correct horse battery"}'
\`\`\`

Send the token on owner routes:

\`\`\`sh
CALC_TOKEN=$(curl -s ${base}/v1/auth/login -H 'Content-Type: application/json' \\
  -d '{"email": "owner@shop.example", "password": "correct horse battery"}' | jq -r .token)

curl -s ${base}/v1/account -H "Authorization: Bearer $CALC_TOKEN"
curl -s ${base}/v1/domains -H "Authorization: Bearer $CALC_TOKEN" \\
  -H 'Content-Type: application/json' -d '{"domain": "https://shop.example"}'
\`\`\`

The CLI does the same: \`calc login\`, then \`calc whoami\` (it also reads \`CALC_TOKEN\`). Each
route below has its own curl call, with \`$CALC_TOKEN\` where it needs the token. A token stops
working when it expires, on \`POST /v1/auth/logout\`, or when the password changes.

## Calling a widget route

\`\`\`sh
curl -s ${base}/v1/widget/load -H 'Content-Type: application/json' \\
  -H 'Origin: https://shop.example' \\
  -d '{"apiKey": "pk_…", "domain": "https://shop.example", "calcId": "bmi"}'
\`\`\`
`;
}

/** Path parameters are always required; query parameters as their schema says. */
function parametersOf(schema: unknown, where: 'path' | 'query') {
  const object = plain(schema) as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  return Object.entries(object?.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object?.required ?? []).includes(name),
    schema: property,
    example: exampleOf(property),
  }));
}

interface CurlRequest {
  method: string;
  /** The public URL with the path template: `{name}` is replaced by the parameter's example. */
  url: string;
  parameters: { name: string; in: 'path' | 'query'; example?: unknown }[];
  body: unknown;
  security: unknown;
}

/**
 * An operation's curl call, from its examples: path and query parameters, the token where
 * the operation requires one (`$CALC_TOKEN`, expanded by the shell), the JSON body, and for
 * a page's call (a widget key and the page's domain in the body, no token) the `Origin`
 * header a browser sends, which must name that domain.
 */
function curlSample({ method, url, parameters, body, security }: CurlRequest): string {
  const pathExample = (name: string) =>
    parameters.find((parameter) => parameter.name === name && parameter.in === 'path')?.example;
  let target = url.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(pathExample(name))));
  const query = parameters
    .filter((parameter) => parameter.in === 'query' && parameter.example !== undefined)
    .map(({ name, example }) => `${encodeURIComponent(name)}=${encodeURIComponent(String(example))}`);
  if (query.length > 0) target += `?${query.join('&')}`;
  // curl sends GET, or POST with `-d`: any other combination needs `-X`.
  const implied = body === undefined ? 'GET' : 'POST';
  const lines = [`curl -s${method === implied ? '' : ` -X ${method}`} ${shellQuote(target)}`];
  const needsToken = requiresToken(security);
  if (needsToken) lines.push('-H "Authorization: Bearer $CALC_TOKEN"');
  if (body !== undefined) {
    const page = body as { apiKey?: unknown; domain?: unknown };
    if (!needsToken && typeof page.apiKey === 'string' && typeof page.domain === 'string')
      lines.push(`-H ${shellQuote(`Origin: ${page.domain}`)}`);
    lines.push(`-H ${shellQuote(`Content-Type: ${JSON_TYPE}`)}`, `-d ${shellQuote(JSON.stringify(body))}`);
  }
  return lines.join(' \\\n  ');
}

function tagOf(path: string): string {
  const segments = path.split('/').filter(Boolean);
  const first = segments[0] === 'v1' ? segments[1] : segments[0];
  return first === 'auth' || first === 'account' ? 'accounts' : (first ?? 'root').replace(/z$/, '');
}

function responsesOf(response: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!response || typeof response !== 'object') return { '200': { description: 'OK' } };
  const entries = 'type' in response ? [['200', response] as const] : Object.entries(response);
  for (const [status, schema] of entries) {
    const json = plain(schema);
    out[status] = isErrorEnvelope(json)
      ? errorRef(status)
      : {
          description: STATUS_TEXT[status] ?? status,
          content: { [JSON_TYPE]: { schema: json, example: exampleOf(json) } },
        };
  }
  return out;
}

/**
 * Whether a route's answer schema is the error envelope. By its description rather than by
 * its text: Elysia may add keywords to a schema object it compiles.
 */
function isErrorEnvelope(schema: unknown): boolean {
  const candidate = schema as { description?: string; properties?: { error?: unknown } } | undefined;
  return candidate?.description === ErrorResponse.description && candidate?.properties?.error !== undefined;
}

/** TypeBox schemas carry symbol keys; a JSON round trip keeps exactly the JSON Schema. */
function plain(schema: unknown): unknown {
  return schema === undefined ? undefined : JSON.parse(JSON.stringify(schema));
}
