import { OwnerCommand } from '../owner-command.ts';
import type { AccountOverviewBody, CalculatorBody } from '../lib/api-types.ts';
import { calcIdArg, calcIdSegment } from '../lib/calc-id.ts';

export default class Embed extends OwnerCommand {
  static override summary = 'Print the HTML snippet that embeds a calculator on your pages.';
  static override description =
    "The snippet carries your public API key and the server's public URL (from GET /v1/account). Only the snippet goes to stdout, so it can be redirected into a file. " +
    "The page's origin must be added with `calc domains add`. With --json, stdout holds {calcId, snippet, publicUrl, apiKey}.";
  static override examples = [
    '<%= config.bin %> embed bmi',
    '<%= config.bin %> embed loan > loan-snippet.html',
    '<%= config.bin %> embed bmi --json',
  ];
  static override args = { calcId: calcIdArg };

  async run() {
    const { args, flags } = await this.parse(Embed);
    const calcId = calcIdSegment(args.calcId);
    const api = this.api(flags);
    // Unknown calculators fail here with the server's 404 message, before a useless snippet is printed.
    await api.get<CalculatorBody>(`/v1/calculators/${calcId}`, { auth: false });
    const { body: overview } = await api.get<AccountOverviewBody>('/v1/account');
    const { publicUrl } = overview;
    const apiKey = overview.account.apiKey;
    const snippet = [
      `<script src="${attribute(`${publicUrl.replace(/\/+$/, '')}/widget.js`)}" async></script>`,
      `<div data-calc-widget data-calc-id="${attribute(calcId)}" data-api-key="${attribute(apiKey)}"></div>`,
    ].join('\n');
    this.log(snippet);
    return { calcId, snippet, publicUrl, apiKey };
  }
}

/** Escapes a value for a double-quoted HTML attribute. */
function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
