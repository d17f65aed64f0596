import type { Database } from 'bun:sqlite';
import { Elysia, t } from 'elysia';
import { AppError } from '../../errors.ts';
import { ErrorResponse } from '../../http/model.ts';

/** Liveness (the process answers) and readiness (the database answers). */
export function healthModule(deps: { sqlite: Database }) {
  return new Elysia({ tags: ['health'] })
    .get('/healthz', () => ({ status: 'ok' as const }), {
      response: { 200: t.Object({ status: t.Literal('ok') }) },
      detail: { summary: 'Liveness' },
    })
    .get(
      '/readyz',
      () => {
        try {
          deps.sqlite.query('SELECT 1').get();
        } catch {
          throw new AppError('not_ready', 'The database cannot be reached.');
        }
        return { status: 'ready' as const };
      },
      {
        response: { 200: t.Object({ status: t.Literal('ready') }), 503: ErrorResponse },
        detail: { summary: 'Readiness: the database answers' },
      },
    );
}
