import { Flags } from '@oclif/core';
import type { WidgetConfigBody } from '../../../src/api-bodies.ts';
import { LOCALES } from '../../../src/definition/locales.ts';
import type { Text } from '../../../src/definition/types.ts';
import { CONTACT_MODES } from '../../../src/results/config.ts';
import { invalidFlag } from '../../base-command.ts';
import { calcIdArg, calcIdSegment } from '../../lib/calc-id.ts';
import { describeConfig } from '../../lib/config-view.ts';
import { OwnerCommand } from '../../owner-command.ts';

type ResultsConfig = NonNullable<WidgetConfigBody['config']['results']>;

const contactFlag = (field: string) =>
  Flags.string({
    description: `ask visitors for their ${field}: required, optional or off`,
    options: [...CONTACT_MODES],
  });

const translationFlag = (of: string) =>
  Flags.string({
    description: `${of} in another language, LANG=TEXT (repeatable; languages: ${LOCALES.filter((l) => l !== 'en').join(', ')})`,
    multiple: true,
  });

export default class ConfigSetResults extends OwnerCommand {
  static override summary = 'Let visitors send their result from a calculator (Base and Extra plans).';
  static override description =
    'Changes what the flags name and keeps the rest of the saved results config. The widget then shows a button under the result, ' +
    'the contact fields you ask for and a consent checkbox with your text (required when a contact field is on). ' +
    'A text given replaces the saved one: --button and --consent-text set it (in English, and for every language), ' +
    '--button-in and --consent-text-in add its translations. See docs/results.md. With --json, stdout holds the body of PUT /v1/widget-config/CALCID.';
  static override examples = [
    '<%= config.bin %> config set-results mortgage --enable --contact-email required --consent-text "Shop Example may email me about this quote."',
    '<%= config.bin %> config set-results mortgage --button "Email me this quote" --button-in "de=Angebot per E-Mail"',
    '<%= config.bin %> config set-results mortgage --disable',
  ];
  static override args = { calcId: calcIdArg };
  static override flags = {
    enable: Flags.boolean({ description: 'turn results on', exclusive: ['disable'] }),
    disable: Flags.boolean({ description: 'turn results off (the texts are kept)', exclusive: ['enable'] }),
    button: Flags.string({ description: "the button's text (the widget's own, in the visitor's language, when none)" }),
    'button-in': translationFlag("the button's text"),
    'clear-button': Flags.boolean({ description: "go back to the widget's own button text", exclusive: ['button'] }),
    'contact-email': contactFlag('email address'),
    'contact-name': contactFlag('name'),
    'consent-text': Flags.string({ description: "the consent checkbox's text" }),
    'consent-text-in': translationFlag("the consent checkbox's text"),
  };

  async run() {
    const { args, flags } = await this.parse(ConfigSetResults);
    const calcId = calcIdSegment(args.calcId);
    const api = this.api(flags);
    const { body: current } = await api.get<WidgetConfigBody>(`/v1/widget-config/${calcId}`);
    const results: ResultsConfig = { ...(current.config.results ?? { enabled: false }) };
    let changed = false;
    const change = <K extends keyof ResultsConfig>(key: K, value: ResultsConfig[K] | undefined) => {
      if (value === undefined) return;
      results[key] = value;
      changed = true;
    };
    if (flags.enable) change('enabled', true);
    if (flags.disable) change('enabled', false);
    change('button', textOf('--button', flags.button, flags['button-in']));
    if (flags['clear-button']) {
      delete results.button;
      changed = true;
    }
    change('consentText', textOf('--consent-text', flags['consent-text'], flags['consent-text-in']));
    if (flags['contact-email'] !== undefined || flags['contact-name'] !== undefined)
      change('contact', {
        email: (flags['contact-email'] ?? results.contact?.email ?? 'off') as (typeof CONTACT_MODES)[number],
        name: (flags['contact-name'] ?? results.contact?.name ?? 'off') as (typeof CONTACT_MODES)[number],
      });
    if (!changed) throw invalidFlag('Nothing to change: give --enable, --disable, a text or a contact field.');
    const { body } = await api.put<WidgetConfigBody>(`/v1/widget-config/${calcId}`, { body: { config: { results } } });
    this.log(`Saved the results config of ${calcId}.`);
    this.log(describeConfig(body));
    return body;
  }
}

/** A text from its flag (English, or the only one) and its translations; undefined when neither is given. */
function textOf(flag: string, text: string | undefined, translations: string[] | undefined): Text | undefined {
  if (translations === undefined || translations.length === 0) return text;
  if (text === undefined)
    throw invalidFlag(`${flag}-in needs ${flag}: the English text, shown when no translation fits.`);
  const all: Record<string, string> = { en: text };
  for (const entry of translations) {
    const at = entry.indexOf('=');
    const language = at < 0 ? '' : entry.slice(0, at).trim().toLowerCase();
    if (!(LOCALES as readonly string[]).includes(language) || language === 'en')
      throw invalidFlag(
        `${flag}-in "${entry}" must be LANG=TEXT with LANG one of ${LOCALES.filter((l) => l !== 'en').join(', ')}.`,
      );
    all[language] = entry.slice(at + 1);
  }
  return all as Text;
}
