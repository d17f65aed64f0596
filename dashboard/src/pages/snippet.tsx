import { useState } from 'preact/hooks';
import { Notice, type NoticeState } from '../components/notice.tsx';
import { perSystem } from '../../../src/definition/systems.ts';
import { textIn } from '../../../src/definition/text.ts';
import type { Definition } from '../../../src/definition/types.ts';

export interface SnippetOptions {
  theme: 'light' | 'dark' | 'auto';
  units: 'metric' | 'imperial' | '';
  locale: string;
  currency: string;
}

// Set at bundle time to the languages of the widget's packs (widget/i18n/), English aside.
declare const CALC_PACK_LANGUAGES: readonly string[];

/** English in the US and the UK (their units differ), then each pack's language in its likeliest region. */
const LOCALES = [
  'en-US',
  'en-GB',
  ...CALC_PACK_LANGUAGES.map((language) => {
    const { region } = new Intl.Locale(language).maximize();
    return region ? `${language}-${region}` : language;
  }),
];

const escapeAttribute = (value: string) => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The snippet a page pastes: one script tag, one element whose data attributes carry the options. */
function snippetFor(publicUrl: string, apiKey: string, calcId: string, options: SnippetOptions): string {
  const attributes = [
    `data-calc-widget`,
    `data-calc-id="${escapeAttribute(calcId)}"`,
    `data-api-key="${escapeAttribute(apiKey)}"`,
  ];
  if (options.theme !== 'light') attributes.push(`data-theme="${options.theme}"`);
  if (options.units) attributes.push(`data-units="${options.units}"`);
  if (options.locale) attributes.push(`data-locale="${escapeAttribute(options.locale)}"`);
  if (options.currency) attributes.push(`data-currency="${escapeAttribute(options.currency)}"`);
  return `<script src="${escapeAttribute(publicUrl)}/widget.js" async></script>\n<div ${attributes.join(' ')}></div>`;
}

/** Whether an input or a result is an amount of money (the `currency` unit, or the currency format). */
const usesCurrency = (definition: Definition): boolean =>
  definition.outputs.some((output) => output.format?.style === 'currency') ||
  definition.inputs.some(
    (input) =>
      input.kind === 'number' &&
      input.unit !== undefined &&
      (['metric', 'imperial'] as const).some(
        (system) => textIn(perSystem(input.unit ?? '', system), 'en') === 'currency',
      ),
  );

export function SnippetBuilder(props: {
  calcId: string;
  definition: Definition;
  publicUrl: string;
  apiKey: string;
  options: SnippetOptions;
  onChange: (options: SnippetOptions) => void;
}) {
  const { definition, options, onChange } = props;
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const snippet = snippetFor(props.publicUrl, props.apiKey, props.calcId, options);
  return (
    <section aria-labelledby="snippet-heading" class="card">
      <h2 id="snippet-heading">Embed snippet</h2>
      <div class="options">
        <label>
          Theme
          <select
            value={options.theme}
            onChange={(event) => onChange({ ...options, theme: event.currentTarget.value as SnippetOptions['theme'] })}
          >
            <option value="light">Light</option>
            <option value="dark">Dark</option>
            <option value="auto">Auto (follows the visitor)</option>
          </select>
        </label>
        {(definition.unitSystems?.length ?? 1) > 1 && (
          <label>
            Units
            <select
              value={options.units}
              onChange={(event) =>
                onChange({ ...options, units: event.currentTarget.value as SnippetOptions['units'] })
              }
            >
              <option value="">From the visitor's locale</option>
              <option value="metric">Metric</option>
              <option value="imperial">Imperial</option>
            </select>
          </label>
        )}
        <label>
          Locale
          <select
            value={options.locale}
            onChange={(event) => onChange({ ...options, locale: event.currentTarget.value })}
          >
            <option value="">The page's language</option>
            {LOCALES.map((locale) => (
              <option key={locale} value={locale}>
                {locale}
              </option>
            ))}
          </select>
        </label>
        {usesCurrency(definition) && (
          <label>
            Currency
            <input
              type="text"
              maxLength={3}
              placeholder="EUR"
              pattern="[A-Za-z]{3}"
              value={options.currency}
              onInput={(event) => onChange({ ...options, currency: event.currentTarget.value.toUpperCase() })}
            />
          </label>
        )}
      </div>
      <pre class="snippet">
        <code id="snippet">{snippet}</code>
      </pre>
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(snippet);
            setNotice({ kind: 'ok', text: 'Snippet copied.' });
          } catch {
            setNotice({ kind: 'error', text: 'Copying is blocked here: select the snippet and copy it by hand.' });
          }
        }}
      >
        Copy snippet
      </button>
      <Notice notice={notice} />
    </section>
  );
}
