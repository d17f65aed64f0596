import { t, type TSchema } from 'elysia';
import { CALC_ID_PATTERN } from '../calculators/id.ts';
import { ERROR_STATUS } from '../errors.ts';

/** The one error envelope, as a schema for the OpenAPI document. */
export const ErrorResponse = t.Object(
  {
    error: t.Object({
      code: t.Union(Object.keys(ERROR_STATUS).map((code) => t.Literal(code))),
      message: t.String(),
      details: t.Optional(t.Unknown()),
    }),
  },
  { description: 'Error envelope' },
);

/** Calculator ids as they appear in paths: lower-case words joined by dashes. */
export const CalcIdParam = t.Object({ calcId: t.String({ pattern: CALC_ID_PATTERN }) });

/**
 * `detail.responses` for an answer the handler serialises itself: documented in the
 * OpenAPI document by its schema, not checked per request. The document builder only
 * reads the schema as JSON, so the OpenAPI typing is not needed.
 */
export function documentedOk(schema: TSchema) {
  return { description: 'OK', content: { 'application/json': { schema: schema as Record<string, unknown> } } };
}
