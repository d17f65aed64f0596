import { t, type Static } from 'elysia';
import { EVENT_TYPES } from '../../delivery/events.ts';
import { EXAMPLE } from '../../http/model.ts';
import { POST_OUTCOMES } from '../../webhook/guarded-post.ts';

const EXAMPLE_SECRET = 'whsec_MfKQ9r8GKYqqnr5F0Ni8z9m6N4wNlzJnUTWyQDaUvUc=';
const EXAMPLE_EVENT = 'msg_2k9v0c1x8q7w6e5r4t3y2u1i';
/** As the log encodes where a page ended: the last attempt's time, event and number. */
const EXAMPLE_CURSOR = Buffer.from(JSON.stringify([EXAMPLE.now, EXAMPLE_EVENT, 1])).toString('base64url');

const EventTypes = t.Array(t.UnionEnum(EVENT_TYPES), {
  uniqueItems: true,
  description: 'The event types the endpoint receives; `test` events are always sent',
  examples: [['result.submitted']],
});

export const EndpointRequest = t.Object({
  url: t.String({
    maxLength: 2048,
    description: 'Absolute http(s) URL on a public address; events are POSTed to it',
    examples: ['https://api.shop.example/calc-events'],
  }),
  events: t.Optional(EventTypes),
  enabled: t.Optional(
    t.Boolean({
      description:
        'false stops deliveries (events stay queued); true, or leaving it out, turns a disabled endpoint on again',
    }),
  ),
});

const Endpoint = t.Object({
  url: t.String({ examples: ['https://api.shop.example/calc-events'] }),
  events: EventTypes,
  enabled: t.Boolean(),
  disabledReason: t.Optional(
    t.String({
      description: 'Why deliveries stopped, while disabled',
      examples: ['Every delivery failed for five days.'],
    }),
  ),
  failingSince: t.Optional(
    t.String({
      format: 'date-time',
      description: 'The first failed delivery since the last delivered one',
      examples: [EXAMPLE.lastPullAt],
    }),
  ),
  secretLast4: t.String({ description: "The secret's last four characters", examples: ['UvUc='] }),
  previousSecretValidUntil: t.Optional(
    t.String({
      format: 'date-time',
      description: 'Until then the previous secret signs too (after a rotation)',
      examples: [EXAMPLE.previousSecretValidUntil],
    }),
  ),
  createdAt: t.String({ format: 'date-time', examples: [EXAMPLE.now] }),
});

export const EndpointEnvelope = t.Object({ endpoint: t.Union([Endpoint, t.Null()]) });

export const SavedEndpoint = t.Object({
  endpoint: Endpoint,
  secret: t.Optional(
    t.String({
      description: 'whsec_…: shown once, when the endpoint is created; keep it on your servers',
      examples: [EXAMPLE_SECRET],
    }),
  ),
});

export const Removed = t.Object({ deleted: t.Literal(true) });

export const RotatedSecret = t.Object({
  secret: t.String({ description: 'The new whsec_… secret, shown once', examples: [EXAMPLE_SECRET] }),
  previousValidUntil: t.String({
    format: 'date-time',
    description: 'Until then every delivery carries a second signature made with the previous secret',
    examples: [EXAMPLE.previousSecretValidUntil],
  }),
});

const Delivery = t.Object({
  eventId: t.String({ description: 'The event id, sent as webhook-id', examples: [EXAMPLE_EVENT] }),
  type: t.String({ examples: ['result.submitted'] }),
  attempt: t.Integer({ minimum: 1, examples: [1] }),
  at: t.String({ format: 'date-time', examples: [EXAMPLE.now] }),
  status: t.Union([t.Integer(), t.Null()], { description: 'The HTTP status answered; null when none came' }),
  outcome: t.UnionEnum(POST_OUTCOMES, { description: '`ok` is a 2xx; the rest say why the attempt failed' }),
  durationMs: t.Integer({ minimum: 0, examples: [42] }),
  response: t.String({ description: 'The first 1 KiB of the answer body', examples: ['{"received":true}'] }),
});

export const DeliveryList = t.Object({
  deliveries: t.Array(Delivery),
  nextCursor: t.Union([t.String(), t.Null()], {
    description: 'Pass as `cursor` for older attempts; null at the end',
    examples: [EXAMPLE_CURSOR],
  }),
});

export const DeliveriesQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: t.Optional(
    t.String({ maxLength: 512, description: 'nextCursor of the page before', examples: [EXAMPLE_CURSOR] }),
  ),
  eventId: t.Optional(
    t.String({ maxLength: 64, description: "Only this event's attempts", examples: [EXAMPLE_EVENT] }),
  ),
});

export const EventParam = t.Object({ eventId: t.String({ maxLength: 64, examples: [EXAMPLE_EVENT] }) });

export const QueuedEvent = t.Object({ eventId: t.String({ examples: [EXAMPLE_EVENT] }) });

export const TestAnswer = t.Object({
  eventId: t.String({ examples: [EXAMPLE_EVENT] }),
  delivery: t.Union([Delivery, t.Null()], {
    description: 'The first attempt, made at once; null when the endpoint had no room and the event is queued',
  }),
});

export type EndpointJson = Static<typeof Endpoint>;
export type DeliveryJson = Static<typeof Delivery>;
export type EndpointInput = Static<typeof EndpointRequest>;
