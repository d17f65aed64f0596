/** Text shown for numbers and units, in the widget's locale (Intl.NumberFormat). */
import {
  perSystem,
  type NumberField,
  type ResultDefinition,
  type UnitSystem,
} from '../../src/calculators/definition.ts';
import type { Translate } from './i18n.ts';
import { decimalsOfStep, inputNumberFormat } from './locale.ts';
import { TEXTS } from './texts.ts';

export interface Formatter {
  /** A value as written into an input (no grouping; the locale's decimal separator). */
  input(field: NumberField, value: number): string;
  /** A result with its definition's decimals (grouped; currency style when known). */
  result(definition: ResultDefinition, value: number): string;
  /** A unit as shown beside a value, translated: 'currency' becomes the currency's symbol. */
  unit(unit: string): string;
  /** A number in an error message ("from 40 to 272"). */
  plain(value: number): string;
}

export function createFormatter(locale: string, currency: string | undefined, t: Translate): Formatter {
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
  return {
    input: (field, value) =>
      cached(`i${decimalsOfStep(field.step)}`, () => inputNumberFormat(locale, decimalsOfStep(field.step))).format(
        value,
      ),
    result(definition, value) {
      const decimals = definition.decimals;
      const asCurrency = currency !== undefined && definition.unit === 'currency';
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
    unit(unit) {
      // Without a configured currency an amount is a plain number ("per L" for prices).
      if (unit === 'currency') return symbol;
      if (!unit.startsWith('currency/')) return unit && t(unit);
      const per = t(unit.slice(9));
      return symbol ? `${symbol}/${per}` : t(TEXTS.perUnit, { unit: per });
    },
    plain: (value) => cached('p', () => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 })).format(value),
  };
}

/** The unit text for a result, empty when its amount already carries the currency. */
export function resultUnit(
  formatter: Formatter,
  definition: ResultDefinition,
  system: UnitSystem,
  hasCurrency: boolean,
): string {
  if (definition.unit === undefined) return '';
  const unit = perSystem(definition.unit, system);
  return unit === 'currency' && hasCurrency ? '' : formatter.unit(unit);
}
