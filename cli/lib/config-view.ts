import { REDACTED } from '../../src/webhook/headers.ts';
import type { WidgetConfigBody } from '../../src/api-bodies.ts';
import { formatDetails } from './details.ts';
import { explainOutcome } from './webhook-outcomes.ts';

/** A config for people; also used after `set-webhook`. */
export function describeConfig(body: WidgetConfigBody): string {
  const webhook = body.config.webhook;
  // Names only: even if a server ever sent a value, a terminal (or a screen share) never shows it.
  const headerNames = Object.keys(webhook?.headers ?? {});
  const status = body.webhookStatus;
  return formatDetails([
    ['Calculator', body.calcId],
    ['Webhook', webhook ? webhook.url : `none (set one with \`calc config set-webhook ${body.calcId} --url URL\`)`],
    ...(webhook
      ? [
          ['Headers', headerNames.length ? headerNames.map((n) => `${n}: ${REDACTED}`).join(', ') : 'none'] as [
            string,
            string,
          ],
        ]
      : []),
    [
      'Last fetch',
      status
        ? `${explainOutcome(status.outcome)}, ${status.httpStatus === null ? 'no HTTP status' : `HTTP ${status.httpStatus}`}, ${status.durationMs} ms, at ${status.at}`
        : 'never',
    ],
  ]);
}
