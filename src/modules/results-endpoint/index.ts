import { Elysia } from 'elysia';
import type { AccountsStore } from '../../db/accounts-store.ts';
import { ErrorResponse } from '../../http/model.ts';
import { noStore } from '../../http/no-store.ts';
import { ownerAuth } from '../../http/owner-auth.ts';
import type { TokenService } from '../../security/session-tokens.ts';
import {
  DeliveriesQuery,
  DeliveryList,
  EndpointEnvelope,
  EndpointRequest,
  EventParam,
  QueuedEvent,
  Removed,
  RotatedSecret,
  SavedEndpoint,
  TestAnswer,
} from './model.ts';
import {
  type EndpointDeps,
  listDeliveries,
  readEndpoint,
  removeEndpoint,
  resendEvent,
  rotateSecret,
  saveEndpoint,
  sendTest,
} from './service.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export type { DeliveryList, EndpointEnvelope, QueuedEvent, RotatedSecret, SavedEndpoint, TestAnswer } from './model.ts';

const bearer = [{ bearer: [] }];
const PATH = '/v1/account/results-endpoint';

/** The account's results endpoint: its settings, its secret, its delivery log (docs/results.md). */
export function resultsEndpointModule(deps: EndpointDeps & { tokens: TokenService; accounts: AccountsStore }) {
  return new Elysia({ tags: ['results'], detail: { security: bearer, ...noStore.detail } })
    .use(ownerAuth(deps))
    .onAfterHandle(noStore.hook)
    .get(PATH, ({ account }) => readEndpoint(deps, account.id), {
      response: { 200: EndpointEnvelope, 401: ErrorResponse },
      detail: { summary: 'The results endpoint (null when none is set); never its secret', security: bearer },
    })
    .put(
      PATH,
      async ({ account, body, set }) => {
        const { created, endpoint, secret } = await saveEndpoint(deps, account, body);
        set.status = created ? 201 : 200;
        return secret === undefined ? { endpoint } : { endpoint, secret };
      },
      {
        body: EndpointRequest,
        response: {
          200: SavedEndpoint,
          201: SavedEndpoint,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          422: ErrorResponse,
        },
        detail: {
          summary:
            'Set the results endpoint (Base and Extra plans); created: 201 with its secret, once. Saving again turns a disabled endpoint on',
          security: bearer,
        },
      },
    )
    .delete(PATH, ({ account }) => removeEndpoint(deps, account.id), {
      response: { 200: Removed, 401: ErrorResponse, 404: ErrorResponse },
      detail: { summary: 'Remove the results endpoint with its queued events and delivery log', security: bearer },
    })
    .post(`${PATH}/rotate-secret`, ({ account }) => rotateSecret(deps, account), {
      response: { 200: RotatedSecret, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      detail: {
        summary: 'A new signing secret, shown once; the previous one signs too for 24 hours',
        security: bearer,
      },
    })
    .get(`${PATH}/deliveries`, ({ account, query }) => listDeliveries(deps, account.id, query), {
      query: DeliveriesQuery,
      response: { 200: DeliveryList, 400: ErrorResponse, 401: ErrorResponse },
      detail: { summary: 'The delivery log, one entry per attempt, newest first', security: bearer },
    })
    .post(
      `${PATH}/deliveries/:eventId/resend`,
      async ({ account, params, set }) => {
        set.status = 202;
        return resendEvent(deps, account, params.eventId);
      },
      {
        params: EventParam,
        response: {
          202: QueuedEvent,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
        },
        detail: { summary: 'Send an event again, with the same webhook-id', security: bearer },
      },
    )
    .post(
      `${PATH}/test`,
      async ({ account, set }) => {
        const { queued, eventId, delivery } = await sendTest(deps, account);
        set.status = queued ? 202 : 200;
        return { eventId, delivery };
      },
      {
        response: {
          200: TestAnswer,
          202: TestAnswer,
          401: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
        },
        detail: {
          summary: 'Send a test event now: 200 with its first attempt, or 202 when it waits in the queue',
          security: bearer,
        },
      },
    );
}
