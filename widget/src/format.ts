/** Text shown for numbers and units, in the widget's locale (Intl.NumberFormat). */
import { perSystem } from '../../src/definition/systems.ts';
import { textIn } from '../../src/definition/text.ts';
import type { NumberInput, Output, Text, UnitSystem } from '../../src/definition/types.ts';
import { DEFAULT_FORMAT } from '../../src/definition/view.ts';
import type { Translate } from './i18n.ts';
import { decimalsOfStep, inputNumberFormat } from './locale.ts';
import { TEXTS } from './texts.ts';

/** Says a definition's text in the widget's language (a catalogue text through its pack). */
export type Say = (text: Text) => string;

export interface Formatter {
  /** A value as written into an input (no grouping; the locale's decimal separator). */
  input(field: NumberInput, value: number): string;
  /** An output's value with its format's decimals, as an amount of the currency when it is one. */
  result(output: Output, value: number): string;
  /** The unit shown beside an output's value ('' when the value carries it, or has none). */
  resultUnit(output: Output, system: UnitSystem): string;
  /** A unit as shown beside a value: `currency` becomes the currency's symbol. */
  unit(unit: Text): string;
  /** A number in an error message ("from 40 to 272"). */
  plain(value: number): string;
}

export function createFormatter(locale: string, currency: string | undefined, t: Translate, say: Say): Formatter {
  const cache = new Map<string, Intl.NumberFormat>();
  const cached = (key: string, make: () => Intl.NumberFormat) => {
    let format = cache.get(key);
    if (!format) {
      format = make();
      cache.set(key, format);
    }
    return format;
  };
  let symbol = '';
  if (currency) {
    try {
      symbol =
        new Intl.NumberFormat(locale, { style: 'currency', currency })
          .formatToParts(0)
          .find((part) => part.type === 'currency')?.value ?? currency;
    } catch {
      symbol = currency;
    }
  }
  const unit = (text: Text): string => {
    // `currency` is a placeholder in any language: its English form says so.
    const english = textIn(text, 'en');
    // Without a configured currency an amount is a plain number ("per L" for prices).
    if (english === 'currency') return symbol;
    if (!english.startsWith('currency/')) return say(text);
    const per = say(english.slice(9));
    return symbol ? `${symbol}/${per}` : t(TEXTS.perUnit, { unit: per });
  };
  return {
    input: (field, value) =>
      cached(`i${decimalsOfStep(field.step)}`, () => inputNumberFormat(locale, decimalsOfStep(field.step))).format(
        value,
      ),
    result(output, value) {
      const { style, decimals } = output.format ?? DEFAULT_FORMAT;
      const asCurrency = currency !== undefined && style === 'currency';
      return cached(
        `r${decimals}${asCurrency ? 'c' : ''}`,
        () =>
          new Intl.NumberFormat(locale, {
            minimumFractionDigits: decimals,
            maximumFractionDigits: decimals,
            ...(asCurrency ? { style: 'currency', currency } : {}),
          }),
      ).format(value);
    },
    resultUnit(output, system) {
      // Destructured: the script must read no `.style` (the CSP test looks for element styles).
      const { style, unit: own } = output.format ?? DEFAULT_FORMAT;
      // An amount carries its currency (or, without one, is a plain number).
      if (style === 'currency') return '';
      if (style === 'percent') return '%';
      return own === undefined ? '' : unit(perSystem(own, system));
    },
    unit,
    plain: (value) => cached('p', () => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 })).format(value),
  };
}
