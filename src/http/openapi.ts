export interface RouteLike {
  method: string;
  path: string;
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
      security?: unknown;
      responses?: Record<string, unknown>;
    };
  };
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '400': 'Invalid request',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'Not found',
  '409': 'Conflict',
  '413': 'Payload too large',
  '422': 'Unprocessable',
  '429': 'Too many requests',
  '503': 'Not ready',
};

/**
 * An OpenAPI 3 document built from the routes Elysia registered: the same TypeBox
 * schemas that validate requests describe them, so the document cannot drift.
 */
export function buildOpenApi(routes: RouteLike[], info: { title: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const { hooks } = route;
    if (hooks.detail?.hide || route.method === 'OPTIONS' || route.method === 'ALL') continue;
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const operation: Record<string, unknown> = {
      summary: hooks.detail?.summary,
      tags: [tagOf(route.path)],
      responses: { ...(plain(hooks.detail?.responses) as object | undefined), ...responsesOf(hooks.response) },
    };
    if (hooks.detail?.security) operation.security = hooks.detail.security;
    const parameters = [...parametersOf(hooks.params, 'path'), ...parametersOf(hooks.query, 'query')];
    if (parameters.length > 0) operation.parameters = parameters;
    if (hooks.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: plain(hooks.body) } } };
    }
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.0.3',
    info: {
      ...info,
      description:
        'Embeddable calculators: widget routes take the public API key in the body; owner routes take a JWT.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}

/** Path parameters are always required; query parameters as their schema says. */
function parametersOf(schema: unknown, where: 'path' | 'query') {
  const object = plain(schema) as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  return Object.entries(object?.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object?.required ?? []).includes(name),
    schema: property,
  }));
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
    out[status] = {
      description: STATUS_TEXT[status] ?? status,
      content: { 'application/json': { schema: plain(schema) } },
    };
  }
  return out;
}

/** TypeBox schemas carry symbol keys; a JSON round trip keeps exactly the JSON Schema. */
function plain(schema: unknown): unknown {
  return schema === undefined ? undefined : JSON.parse(JSON.stringify(schema));
}
