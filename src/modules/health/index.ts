import { Elysia, t } from 'elysia';
import { unavailable } from '../../errors.ts';
import { ErrorResponse } from '../../http/model.ts';
import type { Readiness } from './service.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export { createReadiness } from './service.ts';

/** Liveness (the process answers) and readiness (the database can be read and written). */
export function healthModule(deps: { readiness: () => Readiness }) {
  return new Elysia({ tags: ['health'] })
    .get('/healthz', () => ({ status: 'ok' as const }), {
      response: { 200: t.Object({ status: t.Literal('ok') }) },
      detail: { summary: 'Liveness' },
    })
    .get(
      '/readyz',
      () => {
        const readiness = deps.readiness();
        if (!readiness.ready) throw unavailable('not_ready', readiness.reason);
        return { status: 'ready' as const };
      },
      {
        response: { 200: t.Object({ status: t.Literal('ready') }), 503: ErrorResponse },
        detail: {
          summary:
            'Readiness: the database can be read and written (a write probe at most every 5 s) and answers within 1 s',
        },
      },
    );
}
