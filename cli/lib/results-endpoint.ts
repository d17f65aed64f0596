import type { DeliveryJson, ResultsEndpointBody } from '../../src/api-bodies.ts';
import { formatDetails } from './details.ts';
import { formatTable } from './table.ts';

/** Where the CLI reads and writes the results endpoint. */
export const ENDPOINT_PATH = '/v1/account/results-endpoint';

/** The endpoint as a person reads it; the secret is never among it. */
export function describeEndpoint(endpoint: NonNullable<ResultsEndpointBody['endpoint']>): string {
  const pairs: [string, string][] = [
    ['URL', endpoint.url],
    ['Events', [...endpoint.events, 'test'].join(', ')],
    ['State', endpoint.enabled ? 'enabled' : `disabled: ${endpoint.disabledReason ?? ''}`],
    ['Secret', `whsec_…${endpoint.secretLast4}`],
  ];
  if (endpoint.previousSecretValidUntil)
    pairs.push(['Previous secret', `still signs until ${endpoint.previousSecretValidUntil}`]);
  if (endpoint.failingSince) pairs.push(['Failing since', endpoint.failingSince]);
  pairs.push(['Created', endpoint.createdAt]);
  return formatDetails(pairs);
}

/** One attempt's outcome in a few words. */
export const attemptResult = (delivery: DeliveryJson): string =>
  `${delivery.outcome}${delivery.status === null ? '' : ` (HTTP ${delivery.status})`}`;

export function deliveriesTable(deliveries: DeliveryJson[]): string {
  return formatTable(
    ['AT', 'EVENT', 'TYPE', 'ATTEMPT', 'RESULT', 'MS'],
    deliveries.map((d) => [d.at, d.eventId, d.type, String(d.attempt), attemptResult(d), String(d.durationMs)]),
    [3, 5],
  );
}
