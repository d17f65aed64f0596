import { Flags } from '@oclif/core';
import { invalidFlag } from '../../base-command.ts';
import { OwnerCommand } from '../../owner-command.ts';
import { REDACTED } from '../../../src/webhook/headers.ts';
import type { WidgetConfigBody } from '../../../src/api-bodies.ts';
import { calcIdArg, calcIdSegment } from '../../lib/calc-id.ts';
import { describeConfig } from '../../lib/config-view.ts';
import { readStdin } from '../../lib/stdin.ts';
import { headerLinesFromText, parseHeaderLines } from '../../lib/webhook-headers.ts';

export default class ConfigSetWebhook extends OwnerCommand {
  static override summary = 'Save the webhook that pre-fills a calculator (Extra plan).';
  static override description =
    'On each widget load the server GETs the URL (5 s limit, public addresses only) and pre-fills the fields whose keys the JSON answer holds. ' +
    'Headers replace the saved ones: a saved header not given again is removed, unless --keep-headers. ' +
    'Put secrets in --header-stdin rather than --header, so they stay out of shell history. ' +
    'With --json, stdout holds the body of PUT /v1/widget-config/CALCID.';
  static override examples = [
    '<%= config.bin %> config set-webhook bmi --url https://api.shop.example/prefill',
    '<%= config.bin %> config set-webhook bmi --url https://api.shop.example/prefill --header "X-Shop: 42" --header "Accept-Language: en"',
    'printf "Authorization: Bearer %s\\n" "$TOKEN" | <%= config.bin %> config set-webhook bmi --url https://api.shop.example/prefill --header-stdin',
    '<%= config.bin %> config set-webhook bmi --url https://api2.shop.example/prefill --keep-headers',
  ];
  static override args = { calcId: calcIdArg };
  static override flags = {
    url: Flags.string({ description: 'absolute http(s) URL the server GETs on each widget load', required: true }),
    header: Flags.string({ description: 'a header to send, "Name: value" (repeatable)', multiple: true }),
    'header-stdin': Flags.boolean({ description: 'read more "Name: value" header lines from standard input' }),
    'keep-headers': Flags.boolean({
      description: 'keep saved headers that are not given again (their values stay on the server)',
    }),
  };

  async run() {
    const { args, flags } = await this.parse(ConfigSetWebhook);
    const calcId = calcIdSegment(args.calcId);
    const url = checkedUrl(flags.url);
    const lines = (flags.header ?? []).map((text, index) => ({ text, where: `--header #${index + 1}` }));
    if (flags['header-stdin']) lines.push(...headerLinesFromText(await readStdin()));
    const headers = parseHeaderLines(lines);
    const api = this.api(flags);
    if (flags['keep-headers']) {
      // "<redacted>" tells the server to keep the value it has for that name.
      const { body: current } = await api.get<WidgetConfigBody>(`/v1/widget-config/${calcId}`);
      const given = new Set(Object.keys(headers).map((n) => n.toLowerCase()));
      for (const name of Object.keys(current.config.webhook?.headers ?? {}))
        if (!given.has(name.toLowerCase())) headers[name] = REDACTED;
    }
    const webhook = Object.keys(headers).length > 0 ? { url, headers } : { url };
    const { body } = await api.put<WidgetConfigBody>(`/v1/widget-config/${calcId}`, { body: { config: { webhook } } });
    this.log(`Saved the webhook of ${calcId}.`);
    this.log(describeConfig(body));
    this.log(`Try it now: calc config test-webhook ${calcId}`);
    return body;
  }
}

/** Only the shape is checked here; the server decides whether the address is allowed. */
function checkedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidFlag(`--url "${raw}" is not an absolute URL such as https://api.shop.example/prefill.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidFlag(`--url must start with http:// or https:// (got ${url.protocol}).`);
  return raw;
}
