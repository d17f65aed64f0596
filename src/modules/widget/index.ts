import { Elysia } from 'elysia';
import type { ResolvedCalculator } from '../../calculator-resolver.ts';
import type { InputValues } from '../../definition/types.ts';
import type { AccountRow } from '../../db/accounts-store.ts';
import type { LoadPart } from '../../results/config-cache.ts';
import { invalidRequest } from '../../errors.ts';
import { documentedAnswer, ErrorResponse } from '../../http/model.ts';
import type { NativeRoute } from '../../http/native-route.ts';
import {
  ActiveDomainEnvelope,
  DomainEnvelope,
  PendingDomainEnvelope,
  RegisterDomainRequest,
} from '../domains/index.ts';
import { EventsRequest, LoadAnswer, VerifyAnswer, WidgetRequest } from './model.ts';
import type { WidgetEvent } from '../../usage/funnel.ts';
import type { Logger } from '../../logger.ts';
import { createEarlyRefusals } from './early-refusals.ts';
import {
  type AuthorisedWidget,
  authoriseWidget,
  countEvents,
  registerDomain,
  useQuota,
  type WidgetDeps,
  widgetClient,
} from './service.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export { LoadAnswer, WidgetRequest } from './model.ts';
export { authoriseWidget, type WidgetDeps, widgetClient } from './service.ts';
export { loadedCalculator } from './loaded-calculator.ts';

/**
 * Fetches pre-fill values for a load (the guarded webhook pull, or a test's stand-in);
 * answers without a promise when there is nothing to fetch. `visit` is the page's
 * origin and the visitor context token the page sent, unchecked.
 */
export type Prefill = (
  account: AccountRow,
  calculator: Pick<ResolvedCalculator, 'definition'>,
  visit: { origin: string; context?: string },
) => InputValues | Promise<InputValues>;

/**
 * The load answer. The calculator (the public JSON the resolver serialised with
 * `loadedCalculator`: what the widget renders when it does not bundle it) is its bulk and
 * changes only with a publish, which resolves to another object; without pre-fill values
 * (most loads) the whole answer is built once per calculator and version.
 */
const serialised = new WeakMap<ResolvedCalculator, { head: string; withoutValues: string }>();
function loadAnswer(calculator: ResolvedCalculator, values: InputValues): string {
  let json = serialised.get(calculator);
  if (json === undefined) {
    const head = `{"calcId":${JSON.stringify(calculator.id)},"calculator":${calculator.json}`;
    json = { head, withoutValues: `${head},"values":{}}` };
    serialised.set(calculator, json);
  }
  // Any key at all means pre-fill values: this answer is built for this load.
  for (const _ in values) return `${json.head},"values":${JSON.stringify(values)}}`;
  return json.withoutValues;
}

/**
 * The load answer's `results` for this account and calculator (the owner's results config,
 * docs/results.md): its JSON in an object that stays the same while the config does, or
 * undefined when the widget offers nothing; answers without a promise when it needs no read
 * (src/results/config-cache.ts).
 */
export type ResultsForLoad = (
  account: AccountRow,
  calcId: string,
) => LoadPart | undefined | Promise<LoadPart | undefined>;

/**
 * The load answer with its `results` added before the answer's last brace. The joined text
 * is kept per config for the answer it was made from: without pre-fill values (most loads)
 * that answer is the same string each time, and the load reuses the joined one instead of
 * copying some kilobytes of definition again.
 */
const joined = new WeakMap<object, { from: string; answer: string }>();
function withResults(answer: string, results: LoadPart | undefined): string {
  if (results === undefined) return answer;
  const held = joined.get(results);
  if (held?.from === answer) return held.answer;
  const made = `${answer.slice(0, -1)},"results":${results.json}}`;
  joined.set(results, { from: answer, answer: made });
  return made;
}

/** The verify answer, built once per calculator (and version). */
const verifyAnswers = new WeakMap<ResolvedCalculator, string>();
function verifyAnswer(calculator: ResolvedCalculator): string {
  let json = verifyAnswers.get(calculator);
  if (json === undefined) {
    json = `{"ok":true,"calcId":${JSON.stringify(calculator.id)}}`;
    verifyAnswers.set(calculator, json);
  }
  return json;
}

const widgetErrors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  429: ErrorResponse,
};

/**
 * verify, load and events: called by every embedding page, so Bun's router serves them
 * directly (src/http/native-route.ts) with the same conventions as every other route.
 */
export function widgetRoutes(
  routeDeps: WidgetDeps & { prefill: Prefill; logger: Logger; results?: ResultsForLoad },
): NativeRoute[] {
  // A refusal before the key was looked up (the per-client limit) still counts for its owner.
  const deps = { ...routeDeps, earlyRefusal: createEarlyRefusals(routeDeps) };
  const pageRoutes: NativeRoute<typeof WidgetRequest>[] = [
    {
      path: '/v1/widget/verify',
      body: WidgetRequest,
      response: { 200: VerifyAnswer, ...widgetErrors },
      detail: { summary: 'Check that a page may show a calculator (does not count a load)' },
      answer(body, request) {
        const found = authoriseWidget(deps, body, request.headers.get('origin'), widgetClient(deps, request));
        return found instanceof Promise ? found.then((ok) => verified(deps, ok)) : verified(deps, found);
      },
    },
    {
      path: '/v1/widget/load',
      body: WidgetRequest,
      response: widgetErrors,
      detail: {
        summary: 'Load a calculator with its pre-filled values (counts one load)',
        responses: { 200: { description: 'OK', content: { 'application/json': { schema: LoadAnswer } } } },
      },
      answer(body, request) {
        const found = authoriseWidget(deps, body, request.headers.get('origin'), widgetClient(deps, request));
        return found instanceof Promise
          ? found.then((ok) => loaded(deps, ok, body.context))
          : loaded(deps, found, body.context);
      },
    },
  ];
  return [...pageRoutes, eventsRoute(routeDeps)];
}

/**
 * The funnel's steps a page reports (docs/api.md, "Funnel"): the checks of every widget
 * route and its per-client limit, then each step counted; 204. Its refusals are not
 * counted as refusals: the visitor was not turned away, only a report was.
 */
function eventsRoute(deps: WidgetDeps): NativeRoute<typeof EventsRequest> {
  // The same checks with a usage that counts no refusal, and no early-refusal counter.
  const quiet: WidgetDeps = { ...deps, usage: { ...deps.usage, countRefused: () => {} }, earlyRefusal: undefined };
  const counted = (widget: AuthorisedWidget, events: readonly WidgetEvent[]): string => {
    countEvents(deps, widget, events);
    return '';
  };
  return {
    path: '/v1/widget/events',
    body: EventsRequest,
    refine: ({ events }) => {
      // At most three: compared in place, no set built per report.
      if (events.some((event, i) => events.indexOf(event) !== i))
        throw invalidRequest('events must name each step at most once.', [
          { field: 'events', message: 'a step is repeated' },
        ]);
    },
    status: 204,
    response: widgetErrors,
    detail: {
      summary: "Report a calculator's funnel steps from a page: view, start, complete (never a load, no quota)",
      responses: { 204: { description: 'Counted' } },
    },
    answer(body, request) {
      const found = authoriseWidget(quiet, body, request.headers.get('origin'), widgetClient(deps, request));
      return found instanceof Promise ? found.then((ok) => counted(ok, body.events)) : counted(found, body.events);
    },
  };
}

// The steps below answer at once when every step does (a load on SQLite, within its
// month's known count, without a webhook) and chain on a promise only when one returns
// one: every embedding page calls them, and each promise or closure on the way is work.

function verified(deps: WidgetDeps, widget: AuthorisedWidget): string | Promise<string> {
  const answer = verifyAnswer(widget.calculator);
  const quota = useQuota(deps, widget, false);
  return quota === undefined ? answer : quota.then(() => answer);
}

function loaded(
  deps: WidgetDeps & { prefill: Prefill; results?: ResultsForLoad },
  widget: AuthorisedWidget,
  context: string | undefined,
): string | Promise<string> {
  const { account, calculator, origin } = widget;
  const quota = useQuota(deps, widget, true);
  const answer =
    quota === undefined
      ? prefilled(deps, account, calculator, origin, context)
      : quota.then(() => prefilled(deps, account, calculator, origin, context));
  const results = deps.results?.(account, calculator.definition.id);
  if (results === undefined) return answer;
  if (results instanceof Promise || answer instanceof Promise)
    return Promise.all([answer, results]).then(([a, r]) => withResults(a, r));
  return withResults(answer, results);
}

function prefilled(
  deps: { prefill: Prefill },
  account: AccountRow,
  calculator: ResolvedCalculator,
  origin: string,
  context: string | undefined,
): string | Promise<string> {
  const values = deps.prefill(account, calculator, { origin, context });
  return values instanceof Promise ? values.then((v) => loadAnswer(calculator, v)) : loadAnswer(calculator, values);
}

/** register-domain: a page asks the owner to approve its origin (rare; an Elysia route). */
export function widgetModule(deps: WidgetDeps) {
  return new Elysia({ tags: ['widget'] }).post(
    '/v1/widget/register-domain',
    async ({ body, headers, set, request }) => {
      const domain = await registerDomain(deps, body, headers.origin ?? null, widgetClient(deps, request));
      set.status = domain.status === 'active' ? 200 : 202;
      return { domain };
    },
    {
      body: RegisterDomainRequest,
      response: { 200: DomainEnvelope, 202: DomainEnvelope, ...widgetErrors },
      detail: {
        summary: "Ask the owner to approve this page's origin (records a pending domain)",
        // The reference shows each answer with its own status: active (200) or waiting (202).
        responses: {
          200: documentedAnswer('Already registered and active', ActiveDomainEnvelope),
          202: documentedAnswer("Recorded: waiting for the owner's approval", PendingDomainEnvelope),
        },
      },
    },
  );
}
