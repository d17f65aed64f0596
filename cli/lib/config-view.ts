import { REDACTED } from '../../src/webhook/headers.ts';
import type { WidgetConfigBody } from '../../src/api-bodies.ts';
import { formatDetails } from './details.ts';
import { explainOutcome } from './webhook-outcomes.ts';
import { textIn } from '../../src/definition/text.ts';

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
    ['Results', describeResults(body)],
  ]);
}

/** Whether visitors may send their result, and what the widget asks them for (texts in English). */
function describeResults(body: WidgetConfigBody): string {
  const results = body.config.results;
  if (!results) return `off (turn on with \`calc config set-results ${body.calcId} --enable\`)`;
  const parts = [results.enabled ? 'on' : 'off'];
  if (results.button !== undefined) parts.push(`button "${textIn(results.button, 'en')}"`);
  parts.push(`email ${results.contact?.email ?? 'off'}`, `name ${results.contact?.name ?? 'off'}`);
  if (results.consentText !== undefined) parts.push(`consent "${textIn(results.consentText, 'en')}"`);
  return parts.join(', ');
}
