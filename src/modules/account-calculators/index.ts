import { Elysia } from 'elysia';
import type { AccountsStore } from '../../db/accounts-store.ts';
import { ErrorResponse } from '../../http/model.ts';
import { ownerAuth } from '../../http/owner-auth.ts';
import type { TokenService } from '../../security/session-tokens.ts';
import {
  AccountCalculatorAnswer,
  CalculatorIdParams,
  AccountCalculatorList,
  CreateCalculatorRequest,
  DefinitionRequest,
  CalculatorDeleted,
  EvaluateAnswer,
  EvaluateRequest,
  CalculatorVersionList,
  VersionParams,
} from './model.ts';
import {
  type AccountCalculatorsDeps,
  checkDefinitionIn,
  createCalculator,
  deleteCalculator,
  evaluateCalculator,
  getCalculator,
  listCalculators,
  listVersions,
  publishCalculator,
  restoreVersion,
  updateDraft,
} from './service.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export type {
  AccountCalculatorAnswer,
  AccountCalculatorList,
  CalculatorDeleted,
  EvaluateAnswer,
  CalculatorVersionList,
} from './model.ts';

const bearer = [{ bearer: [] }];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse };
const BASE = '/v1/account/calculators';

/** The owner's own calculators: drafts, publishing, versions and the server's evaluation. */
export function accountCalculatorsModule(
  deps: AccountCalculatorsDeps & { tokens: TokenService; accounts: AccountsStore },
) {
  return new Elysia({ tags: ['calculators'] })
    .use(ownerAuth(deps))
    .get(BASE, async ({ account }) => ({ calculators: await listCalculators(deps, account.id) }), {
      response: { 200: AccountCalculatorList, 401: ErrorResponse },
      detail: { summary: 'List your own calculators with their status and published version', security: bearer },
    })
    .post(
      BASE,
      async ({ account, body, set }) => {
        const created = await createCalculator(deps, account, body);
        set.status = 201;
        return created;
      },
      {
        // Before the schema (and after the sign-in check): every problem of a definition, by path.
        transform: ({ body }) => checkDefinitionIn(body),
        body: CreateCalculatorRequest,
        response: { 201: AccountCalculatorAnswer, ...errors, 403: ErrorResponse, 409: ErrorResponse },
        detail: {
          summary: 'Create a calculator (a draft): from a definition, or as a copy of a catalogue calculator',
          security: bearer,
        },
      },
    )
    .get(`${BASE}/:id`, async ({ account, params }) => getCalculator(deps, account.id, params.id), {
      params: CalculatorIdParams,
      response: { 200: AccountCalculatorAnswer, ...errors },
      detail: { summary: 'One of your calculators: its draft and its published version', security: bearer },
    })
    .put(`${BASE}/:id`, async ({ account, body }) => updateDraft(deps, account.id, body.definition), {
      transform: ({ body, params }) => checkDefinitionIn(body, (params as { id?: string }).id),
      params: CalculatorIdParams,
      body: DefinitionRequest,
      response: { 200: AccountCalculatorAnswer, ...errors },
      detail: {
        summary: "Save a calculator's draft (what visitors see changes only when it is published)",
        security: bearer,
      },
    })
    .delete(`${BASE}/:id`, async ({ account, params }) => deleteCalculator(deps, account.id, params.id), {
      params: CalculatorIdParams,
      response: { 200: CalculatorDeleted, ...errors },
      detail: {
        summary: 'Delete a calculator with its versions (embedding pages show it as unavailable)',
        security: bearer,
      },
    })
    .post(`${BASE}/:id/publish`, async ({ account, params }) => publishCalculator(deps, account.id, params.id), {
      params: CalculatorIdParams,
      response: { 200: AccountCalculatorAnswer, ...errors },
      detail: { summary: 'Publish the draft as the next version: what widgets load from now on', security: bearer },
    })
    .get(`${BASE}/:id/versions`, async ({ account, params }) => listVersions(deps, account.id, params.id), {
      params: CalculatorIdParams,
      response: { 200: CalculatorVersionList, ...errors },
      detail: { summary: "A calculator's published versions (the newest 20 are kept)", security: bearer },
    })
    .post(
      `${BASE}/:id/versions/:n/restore`,
      async ({ account, params }) => restoreVersion(deps, account.id, params.id, Number(params.n)),
      {
        params: VersionParams,
        response: { 200: AccountCalculatorAnswer, ...errors },
        detail: { summary: 'Make a published version the draft again (publish it to serve it)', security: bearer },
      },
    )
    .post(
      `${BASE}/:id/evaluate`,
      async ({ account, params, body }) => evaluateCalculator(deps, account.id, params.id, body),
      {
        params: CalculatorIdParams,
        body: EvaluateRequest,
        response: { 200: EvaluateAnswer, ...errors },
        detail: {
          summary: 'Evaluate the published version (or the draft) on the server, for tests and backends',
          security: bearer,
        },
      },
    );
}
