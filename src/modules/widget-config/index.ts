import { Elysia, t } from 'elysia';
import type { AccountsStore } from '../../db/accounts-store.ts';
import type { DomainsStore } from '../../db/domains-store.ts';
import { CalcIdParam, ErrorResponse } from '../../http/model.ts';
import { ownerAuth } from '../../http/owner-auth.ts';
import type { TokenService } from '../../security/session-tokens.ts';
import { LoadAnswer } from '../widget/index.ts';
import { ConfigAnswer, ConfigRequest, PreviewRequest, TestAnswer, TestWebhookRequest } from './model.ts';
import { pullWebhook, type PullDeps } from './pull.ts';
import { requireAccountCalculator } from '../../require-calculator.ts';
import { previewCalculator, readConfig, saveConfig, testVisit, type ConfigDeps } from './service.ts';
import type { ResultsConfigCache } from '../../results/config-cache.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export { loadPrefill } from './prefill.ts';
export type { PullDeps } from './pull.ts';
export { createStatusLog } from './status-log.ts';
export type { ConfigAnswer, TestAnswer } from './model.ts';

const bearer = [{ bearer: [] }];

/** Owner routes for per-calculator widget config and the webhook's diagnostics. */
export function widgetConfigModule(
  deps: ConfigDeps &
    PullDeps & { tokens: TokenService; accounts: AccountsStore; domains: DomainsStore; results: ResultsConfigCache },
) {
  return new Elysia()
    .use(ownerAuth(deps))
    .get('/v1/widget-config/:calcId', ({ account, params }) => readConfig(deps, account.id, params.calcId), {
      params: CalcIdParam,
      response: { 200: ConfigAnswer, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      detail: {
        summary: "Read a calculator's config (header values redacted) and the last webhook outcome",
        security: bearer,
      },
    })
    .put(
      '/v1/widget-config/:calcId',
      ({ account, params, body }) => saveConfig(deps, account, params.calcId, body.config),
      {
        params: CalcIdParam,
        body: ConfigRequest,
        response: {
          200: ConfigAnswer,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
          422: ErrorResponse,
        },
        detail: {
          summary:
            'Save or remove the webhook (Extra plan; {config: {}} removes it) and the results config (Base and Extra)',
          security: bearer,
        },
      },
    )
    .post(
      '/v1/widget-config/:calcId/test-webhook',
      async ({ account, params, body }) => {
        const { outcome, httpStatus, durationMs, values, ignoredKeys } = await pullWebhook(
          deps,
          account,
          await requireAccountCalculator(deps, account.id, params.calcId),
          await testVisit(deps, account.id, body?.visitor),
        );
        return { outcome, httpStatus, durationMs, values, ignoredKeys };
      },
      {
        params: CalcIdParam,
        body: t.Optional(TestWebhookRequest),
        response: { 200: TestAnswer, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
        detail: { summary: 'Run the guarded webhook fetch now and show what it would pre-fill', security: bearer },
      },
    )
    .post(
      '/v1/widget/preview',
      async ({ account, body }) => {
        const answer = await previewCalculator(deps, account, body);
        // As the page's load shows it: `results` only when the widget offers sending the result.
        const results = await deps.results.forLoad(account, answer.calcId);
        return results === undefined ? answer : { ...answer, results: JSON.parse(results.json) };
      },
      {
        body: PreviewRequest,
        response: { 200: LoadAnswer, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
        detail: {
          summary:
            "The load answer for the owner's own preview (or an own calculator's draft): same pull, not counted, no domain check",
          security: bearer,
        },
      },
    );
}
