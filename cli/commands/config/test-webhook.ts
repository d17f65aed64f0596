import { Flags } from '@oclif/core';
import { OwnerCommand } from '../../owner-command.ts';
import type { TestWebhookBody } from '../../../src/api-bodies.ts';
import { EXIT } from '../../base-command.ts';
import { calcIdArg, calcIdSegment } from '../../lib/calc-id.ts';
import { formatDetails } from '../../lib/details.ts';
import { printable } from '../../lib/printable.ts';
import { explainOutcome } from '../../lib/webhook-outcomes.ts';

export default class ConfigTestWebhook extends OwnerCommand {
  static override summary = "Call a calculator's webhook now and show what it would pre-fill.";
  static override description =
    'Runs the same guarded fetch as a widget load (it does not count as a load). Visitors never see webhook errors; this shows them: ' +
    'the outcome, HTTP status, duration, the field values it would pre-fill and the keys it ignored. ' +
    'Exits 1 when the outcome is not ok, so scripts can check a webhook. ' +
    'With --json, stdout holds the body of POST /v1/widget-config/CALCID/test-webhook.';
  static override examples = [
    '<%= config.bin %> config test-webhook bmi',
    '<%= config.bin %> config test-webhook bmi --json',
    '<%= config.bin %> config test-webhook bmi --visitor cust_42',
  ];
  static override args = { calcId: calcIdArg };
  static override flags = {
    visitor: Flags.string({
      description: 'make the call as this visitor: it carries Calc-Visitor, as a load with a valid data-context does',
    }),
  };

  async run() {
    const { args, flags } = await this.parse(ConfigTestWebhook);
    const calcId = calcIdSegment(args.calcId);
    const { body } = await this.api(flags).post<TestWebhookBody>(`/v1/widget-config/${calcId}/test-webhook`, {
      body: flags.visitor === undefined ? undefined : { visitor: flags.visitor },
    });
    const values = Object.entries(body.values);
    this.log(
      formatDetails([
        ['Outcome', explainOutcome(body.outcome)],
        ['HTTP status', body.httpStatus === null ? 'none' : String(body.httpStatus)],
        ['Duration', `${body.durationMs} ms`],
        [
          'Pre-fill',
          values.length
            ? values.map(([key, value]) => `${printable(key)} = ${JSON.stringify(value)}`).join(', ')
            : 'nothing',
        ],
        ['Ignored keys', body.ignoredKeys.length ? body.ignoredKeys.map(printable).join(', ') : 'none'],
      ]),
    );
    // The answer is printed either way; the exit code tells scripts whether pre-fill works.
    if (body.outcome !== 'ok') process.exitCode = EXIT.failure;
    return body;
  }
}
