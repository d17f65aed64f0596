import { OwnerCommand } from '../../owner-command.ts';
import type { WidgetConfigBody } from '../../lib/api-types.ts';
import { calcIdArg, calcIdSegment } from '../../lib/calc-id.ts';
import { formatDetails } from '../../lib/details.ts';
import { explainOutcome } from '../../lib/webhook-outcomes.ts';

export default class ConfigGet extends OwnerCommand {
  static override summary = "Show a calculator's widget config and the last webhook outcome.";
  static override description =
    'Header values are never shown: the server returns only their names. With --json, stdout holds the body of GET /v1/widget-config/CALCID.';
  static override examples = ['<%= config.bin %> config get bmi', '<%= config.bin %> config get bmi --json'];
  static override args = { calcId: calcIdArg };

  async run() {
    const { args, flags } = await this.parse(ConfigGet);
    const { body } = await this.api(flags).get<WidgetConfigBody>(`/v1/widget-config/${calcIdSegment(args.calcId)}`);
    this.log(describeConfig(body));
    return body;
  }
}

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
          ['Headers', headerNames.length ? headerNames.map((n) => `${n}: <redacted>`).join(', ') : 'none'] as [
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
