import { Flags } from '@oclif/core';
import { CliFailure, invalidFlag } from '../base-command.ts';
import { OwnerCommand } from '../owner-command.ts';
import type { AccountCalculatorBody, AccountOverviewBody, CalculatorBody } from '../../src/api-bodies.ts';
import type { ApiClient } from '../lib/api-client.ts';
import { calcIdArg, calcIdSegment } from '../lib/calc-id.ts';

export default class Embed extends OwnerCommand {
  static override summary = 'Print the HTML snippet that embeds a calculator on your pages.';
  static override description =
    "The snippet carries your public API key and the server's public URL (from GET /v1/account). Only the snippet goes to stdout, so it can be redirected into a file. " +
    "The page's origin must be added with `calc domains add`. With --json, stdout holds {calcId, snippet, publicUrl, apiKey}. " +
    'The calculator is one of the catalogue or one of your own (pages show yours once it is published).';
  static override examples = [
    '<%= config.bin %> embed bmi',
    '<%= config.bin %> embed loan > loan-snippet.html',
    '<%= config.bin %> embed mortgage --currency EUR --locale de-DE --theme auto',
    '<%= config.bin %> embed bmi --units imperial --json',
    `<%= config.bin %> embed bmi --values '{"weightKg": 80}'`,
  ];
  static override args = { calcId: calcIdArg };
  // The widget's data attributes (docs/embedding.md, "Options").
  static override flags = {
    theme: Flags.string({ description: 'colour theme (data-theme)', options: ['light', 'dark', 'auto'] }),
    units: Flags.string({ description: 'unit system (data-units)', options: ['metric', 'imperial'] }),
    locale: Flags.string({ description: 'language and number format, a BCP 47 tag such as de-DE (data-locale)' }),
    currency: Flags.string({ description: 'show amounts in this ISO 4217 currency, such as EUR (data-currency)' }),
    values: Flags.string({
      description:
        "starting values as a JSON object of the calculator's field keys, such as '{\"weightKg\": 80}' (data-values); your webhook's and the visitor's win",
    }),
  };

  async run() {
    const { args, flags } = await this.parse(Embed);
    const calcId = calcIdSegment(args.calcId);
    // Checked before any request, so a typo fails fast.
    if (flags.locale) localeOf(flags.locale);
    if (flags.currency) currencyOf(flags.currency);
    const api = this.api(flags);
    const values = flags.values === undefined ? undefined : valuesOf(flags.values);
    // Unknown calculators fail here with the server's 404 message, before a useless snippet is printed.
    const keys = await this.inputKeys(api, calcId);
    if (values) checkKeys(values, calcId, keys);
    const { body: overview } = await api.get<AccountOverviewBody>('/v1/account');
    const { publicUrl } = overview;
    const apiKey = overview.account.apiKey;
    const options = [
      flags.theme && ` data-theme="${attribute(flags.theme)}"`,
      flags.units && ` data-units="${attribute(flags.units)}"`,
      flags.locale && ` data-locale="${attribute(localeOf(flags.locale))}"`,
      flags.currency && ` data-currency="${attribute(currencyOf(flags.currency))}"`,
      // Single quotes around JSON read best; the JSON's own ' and & are escaped.
      values && ` data-values='${JSON.stringify(values).replace(/&/g, '&amp;').replace(/'/g, '&#39;')}'`,
    ].join('');
    const snippet = [
      `<script src="${attribute(`${publicUrl.replace(/\/+$/, '')}/widget.js`)}" async></script>`,
      `<div data-calc-widget data-calc-id="${attribute(calcId)}" data-api-key="${attribute(apiKey)}"${options}></div>`,
    ].join('\n');
    this.log(snippet);
    return { calcId, snippet, publicUrl, apiKey };
  }

  /**
   * The keys a page's values may use: a catalogue calculator's fields, or the inputs of one
   * of the owner's own (docs/calculators.md, "Loading your calculators"), which pages show
   * once it is published: a draft never published gets its snippet and a warning.
   */
  private async inputKeys(api: ApiClient, calcId: string): Promise<string[]> {
    try {
      const { body } = await api.get<CalculatorBody>(`/v1/calculators/${calcId}`, { auth: false });
      return (body.calculator.fields ?? []).map((field) => field.key);
    } catch (notInCatalogue) {
      if (!(notInCatalogue instanceof CliFailure) || notInCatalogue.code !== 'calculator_not_found')
        throw notInCatalogue;
      let own: AccountCalculatorBody;
      try {
        ({ body: own } = await api.get<AccountCalculatorBody>(`/v1/account/calculators/${calcId}`));
      } catch (error) {
        // Neither the catalogue's nor the owner's: the catalogue's message says so.
        throw error instanceof CliFailure && error.code === 'calculator_not_found' ? notInCatalogue : error;
      }
      if (own.published === null)
        this.warn(
          `"${calcId}" is not published yet: pages show "Calculator unavailable" until you publish it (calc calculators publish ${calcId}).`,
        );
      return (own.published ?? own.draft).inputs.map((input) => input.key);
    }
  }
}

/** A BCP 47 tag in its canonical spelling (de-de → de-DE); refused when Intl does not know it. */
function localeOf(text: string): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(text);
    if (canonical) return canonical;
  } catch {}
  throw invalidFlag(`--locale "${text}" is not a language tag such as en-US, de-DE or fr.`);
}

/** `--values`: a JSON object of numbers and strings (what the widget accepts from data-values). */
function valuesOf(text: string): Record<string, number | string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const valid =
    typeof parsed === 'object' &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    Object.values(parsed).every(
      (value) => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)),
    );
  if (!valid) throw invalidFlag(`--values must be a JSON object of numbers and strings, such as '{"weightKg": 80}'.`);
  return parsed as Record<string, number | string>;
}

/** Keys the calculator does not have would be ignored by the widget: say so now. */
function checkKeys(values: Record<string, number | string>, calcId: string, keys: readonly string[]): void {
  const known = new Set(keys);
  const unknown = Object.keys(values).filter((key) => !known.has(key));
  if (unknown.length > 0)
    throw invalidFlag(
      `--values: ${calcId} has no field ${unknown.map((key) => `"${key}"`).join(', ')} (its keys: ${[...known].join(', ')}).`,
    );
}

/** An ISO 4217 code that Intl can format (eur → EUR). */
function currencyOf(text: string): string {
  const code = text.trim().toUpperCase();
  if (/^[A-Z]{3}$/.test(code) && Intl.supportedValuesOf('currency').includes(code)) return code;
  throw invalidFlag(`--currency "${text}" is not an ISO 4217 currency code such as EUR, USD or GBP.`);
}

/** Escapes a value for a double-quoted HTML attribute. */
function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
