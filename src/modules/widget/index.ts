import { Elysia } from 'elysia';
import { toPublic } from '../../calculators/definition.ts';
import type { CalculatorDefinition, FieldValues } from '../../calculators/definition.ts';
import type { AccountRow } from '../../db/accounts-store.ts';
import { ErrorResponse } from '../../http/model.ts';
import type { NativeRoute } from '../../http/native-route.ts';
import { DomainEnvelope, RegisterDomainBody } from '../domains/model.ts';
import { LoadAnswer, VerifyAnswer, WidgetBody } from './model.ts';
import { authoriseWidget, registerDomain, useQuota, type WidgetDeps } from './service.ts';

/**
 * Fetches pre-fill values for a load (the guarded webhook pull, or a test's stand-in);
 * answers without a promise when there is nothing to fetch. `visit` is the page's
 * origin and the visitor context token the page sent, unchecked.
 */
export type Prefill = (
  account: AccountRow,
  calculator: CalculatorDefinition,
  visit: { origin: string; context?: string },
) => FieldValues | Promise<FieldValues>;

/**
 * The load answer. The definition is its bulk and never changes, so it is serialised
 * once; without pre-fill values (most loads) the whole answer is built once per calculator.
 */
const serialised = new WeakMap<CalculatorDefinition, { definition: string; withoutValues: string }>();
function loadAnswer(calculator: CalculatorDefinition, values: FieldValues): string {
  let json = serialised.get(calculator);
  if (json === undefined) {
    const definition = JSON.stringify(toPublic(calculator));
    json = {
      definition,
      withoutValues: `{"calcId":${JSON.stringify(calculator.id)},"calculator":${definition},"values":{}}`,
    };
    serialised.set(calculator, json);
  }
  // Any key at all means pre-fill values: this answer is built for this load.
  for (const _ in values)
    return `{"calcId":${JSON.stringify(calculator.id)},"calculator":${json.definition},"values":${JSON.stringify(values)}}`;
  return json.withoutValues;
}

const widgetErrors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  429: ErrorResponse,
};

/**
 * verify and load: called by every embedding page, so Bun's router serves them directly
 * (src/http/native-route.ts) with the same conventions as every other route.
 */
export function widgetRoutes(deps: WidgetDeps & { prefill: Prefill }): NativeRoute<typeof WidgetBody>[] {
  return [
    {
      path: '/v1/widget/verify',
      body: WidgetBody,
      response: { 200: VerifyAnswer, ...widgetErrors },
      detail: { summary: 'Check that a page may show a calculator (does not count a load)' },
      answer(body, request) {
        return then(authoriseWidget(deps, body, request.headers.get('origin')), ({ account, calculator }) =>
          then(useQuota(deps, account), () => `{"ok":true,"calcId":${JSON.stringify(calculator.id)}}`),
        );
      },
    },
    {
      path: '/v1/widget/load',
      body: WidgetBody,
      response: widgetErrors,
      detail: {
        summary: 'Load a calculator with its pre-filled values (counts one load)',
        responses: { 200: { description: 'OK', content: { 'application/json': { schema: LoadAnswer } } } },
      },
      answer(body, request) {
        return then(authoriseWidget(deps, body, request.headers.get('origin')), ({ account, calculator, origin }) =>
          then(useQuota(deps, account, { calcId: calculator.id, origin }), () =>
            then(deps.prefill(account, calculator, { origin, context: body.context }), (values) =>
              loadAnswer(calculator, values),
            ),
          ),
        );
      },
    },
  ];
}

/**
 * `next(value)`, at once when `value` is there, or once its promise settles. A load on
 * SQLite, within its month's known count and without a webhook, then answers without a
 * single promise: every embedding page calls it, and each await costs a tick.
 */
function then<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** register-domain: a page asks the owner to approve its origin (rare; an Elysia route). */
export function widgetModule(deps: WidgetDeps) {
  return new Elysia({ tags: ['widget'] }).post(
    '/v1/widget/register-domain',
    async ({ body, headers, set }) => {
      const domain = await registerDomain(deps, body, headers.origin ?? null);
      set.status = domain.status === 'active' ? 200 : 202;
      return { domain };
    },
    {
      body: RegisterDomainBody,
      response: { 200: DomainEnvelope, 202: DomainEnvelope, ...widgetErrors },
      detail: { summary: "Ask the owner to approve this page's origin (records a pending domain)" },
    },
  );
}
