import { Elysia } from 'elysia';
import type { CalculatorResolver } from '../../calculator-resolver.ts';
import type { AccountsStore } from '../../db/accounts-store.ts';
import type { ResultsStore } from '../../db/results-store.ts';
import { documentedAnswer, ErrorResponse } from '../../http/model.ts';
import { ownerAuth } from '../../http/owner-auth.ts';
import type { TokenService } from '../../security/session-tokens.ts';
import { exportResults } from './export.ts';
import {
  ExportQuery,
  ResultDeleted,
  ResultEnvelope,
  ResultList,
  ResultParam,
  ResultsQuery,
  SubmitAnswer,
  SubmitRequest,
} from './model.ts';
import { deleteResult, listResults, readResult } from './service.ts';
import { type SubmitDeps, submitResult } from './submit.ts';
import { widgetClient } from '../widget/index.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export type { ResultDeleted, ResultEnvelope, ResultList } from './model.ts';

const bearer = [{ bearer: [] }];

/** A visitor sends their result (docs/results.md): a widget route, in the widget group. */
export function resultsSubmitModule(deps: SubmitDeps) {
  return new Elysia({ tags: ['widget'] }).post(
    '/v1/widget/submit',
    async ({ body, headers, set, request }) => {
      const answer = await submitResult(deps, body, headers.origin ?? null, widgetClient(deps, request));
      set.status = 202;
      return answer;
    },
    {
      body: SubmitRequest,
      response: {
        202: SubmitAnswer,
        400: ErrorResponse,
        401: ErrorResponse,
        403: ErrorResponse,
        404: ErrorResponse,
        429: ErrorResponse,
      },
      detail: {
        summary: "Send a visitor's result (results on for the calculator); 202 once it is stored",
        responses: { 202: documentedAnswer('Stored (or a honeypot caught it: stored nowhere)', SubmitAnswer) },
      },
    },
  );
}

/** The owner's results: list, read, delete, export (docs/results.md). Any plan: what was kept stays the owner's. */
export function resultsModule(deps: {
  results: ResultsStore;
  resolve: CalculatorResolver;
  now: () => Date;
  tokens: TokenService;
  accounts: AccountsStore;
}) {
  return new Elysia({ tags: ['results'] })
    .use(ownerAuth(deps))
    .onAfterHandle(({ set }) => {
      // Visitors' personal data: no cache may keep a copy.
      set.headers['cache-control'] = 'no-store';
    })
    .get('/v1/results', ({ account, query }) => listResults(deps, account.id, query), {
      query: ResultsQuery,
      response: { 200: ResultList, 400: ErrorResponse, 401: ErrorResponse },
      detail: { summary: "The account's results, newest first, a page at a time", security: bearer },
    })
    .get('/v1/results/export', ({ account, query }) => exportResults(deps, account.id, query), {
      query: ExportQuery,
      response: { 400: ErrorResponse, 401: ErrorResponse },
      detail: {
        summary: 'Every result the filters select, streamed as CSV (one column per input and output) or JSON lines',
        security: bearer,
        responses: {
          200: {
            description: 'The export, streamed',
            content: {
              'text/csv': { schema: { type: 'string' } },
              'application/x-ndjson': { schema: { type: 'string' } },
            },
          },
        },
      },
    })
    .get('/v1/results/:id', ({ account, params }) => readResult(deps, account.id, params.id), {
      params: ResultParam,
      response: { 200: ResultEnvelope, 401: ErrorResponse, 404: ErrorResponse },
      detail: { summary: 'One result', security: bearer },
    })
    .delete('/v1/results/:id', ({ account, params }) => deleteResult(deps, account.id, params.id), {
      params: ResultParam,
      response: { 200: ResultDeleted, 401: ErrorResponse, 404: ErrorResponse },
      detail: {
        summary: 'Delete a result, with its queued event and that delivery log (it leaves calc entirely)',
        security: bearer,
      },
    });
}
