import { Elysia } from 'elysia';
import { toPublic } from '../../calculators/definition.ts';
import type { CalculatorDefinition, FieldValues } from '../../calculators/definition.ts';
import type { AccountRow } from '../../db/accounts-store.ts';
import { ErrorResponse } from '../../http/model.ts';
import { DomainEnvelope, RegisterDomainBody } from '../domains/model.ts';
import { LoadAnswer, VerifyAnswer, WidgetBody } from './model.ts';
import { authoriseWidget, registerDomain, useQuota, type WidgetDeps } from './service.ts';

/** Fetches pre-fill values for a load (the guarded webhook pull, or a test's stand-in). */
export type Prefill = (account: AccountRow, calculator: CalculatorDefinition) => Promise<FieldValues>;

const serialised = new WeakMap<CalculatorDefinition, string>();
function publicJson(calculator: CalculatorDefinition): string {
  let json = serialised.get(calculator);
  if (json === undefined) {
    json = JSON.stringify(toPublic(calculator));
    serialised.set(calculator, json);
  }
  return json;
}

const widgetErrors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse };

/** Routes a third-party page calls with the public API key in the body. */
export function widgetModule(deps: WidgetDeps & { prefill: Prefill }) {
  return new Elysia({ tags: ['widget'] })
    .post(
      '/v1/widget/verify',
      ({ body, headers }) => {
        const { account, calculator } = authoriseWidget(deps, body, headers.origin ?? null);
        useQuota(deps, account, false);
        return { ok: true as const, calcId: calculator.id };
      },
      { body: WidgetBody, response: { 200: VerifyAnswer, ...widgetErrors }, detail: { summary: 'Check that a page may show a calculator (does not count a load)' } },
    )
    .post(
      '/v1/widget/load',
      async ({ body, headers, set }) => {
        const { account, calculator } = authoriseWidget(deps, body, headers.origin ?? null);
        useQuota(deps, account, true);
        const values = await deps.prefill(account, calculator);
        // The definition is the bulk of the answer and never changes: it is serialised
        // once and the answer is a string built around it. (A Response object would be
        // copied by Elysia to add the hooks' headers.) LoadAnswer documents it.
        set.headers['content-type'] = 'application/json';
        return `{"calcId":${JSON.stringify(calculator.id)},"calculator":${publicJson(calculator)},"values":${JSON.stringify(values)}}`;
      },
      { body: WidgetBody, response: widgetErrors, detail: { summary: 'Load a calculator with its pre-filled values (counts one load)', responses: { 200: { description: 'OK', content: { 'application/json': { schema: LoadAnswer } } } } } },
    )
    .post(
      '/v1/widget/register-domain',
      ({ body, headers, set }) => {
        const domain = registerDomain(deps, body, headers.origin ?? null);
        set.status = domain.status === 'active' ? 200 : 202;
        return { domain };
      },
      {
        body: RegisterDomainBody,
        response: { 200: DomainEnvelope, 202: DomainEnvelope, ...widgetErrors },
        detail: { summary: 'Ask the owner to approve this page\'s origin (records a pending domain)' },
      },
    );
}
