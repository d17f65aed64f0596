import { t } from 'elysia';
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
export const CalcIdParam = t.Object({ calcId: t.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$' }) });
