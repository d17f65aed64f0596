/**
 * Locale handling: which locale to use, the unit system a locale expects, and reading
 * and writing numbers the way visitors type them (`,` or `.` as decimal separator).
 */
import type { UnitSystem } from '../../src/definition/types.ts';

// Regions that use US customary units in daily life.
const IMPERIAL_REGIONS = new Set(['US', 'LR', 'MM']);

/** The first candidate that Intl accepts, else 'en'. `data-locale` → `<html lang>` → browser. */
export function resolveLocale(candidates: (string | null | undefined)[]): string {
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      const [supported] = Intl.NumberFormat.supportedLocalesOf(candidate);
      if (supported) return supported;
    } catch {
      // A malformed tag (RangeError): try the next candidate.
    }
  }
  return 'en';
}

/**
 * Imperial where the region uses it, metric everywhere else. The region is the locale's
 * own, else the browser's when it speaks the same language (a page in "en" read with
 * "en-GB" is British), else the language's likely region ("en" → US).
 */
export function unitSystemForLocale(locale: string, browserLocale?: string): UnitSystem {
  try {
    const page = new Intl.Locale(locale);
    const browser = browserLocale ? new Intl.Locale(browserLocale) : undefined;
    const region =
      page.region ?? (browser?.language === page.language ? browser.region : undefined) ?? page.maximize().region;
    return region !== undefined && IMPERIAL_REGIONS.has(region) ? 'imperial' : 'metric';
  } catch {
    return 'metric';
  }
}

/**
 * Reads what a visitor typed: both `,` and `.` work as the decimal separator; spaces and,
 * when both separators appear, the earlier ones are taken as grouping. Null when the text
 * is empty or not a number.
 */
export function parseDecimal(text: string): number | null {
  let s = text.replace(/[\s\u00a0\u202f']/g, '').replace(/^[\u2212\u2012\u2013]/, '-');
  if (s === '') return null;
  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    // "1.234,5" or "1,234.5": the last separator is the decimal one.
    const decimal = lastComma > lastDot ? ',' : '.';
    const grouping = decimal === ',' ? '.' : ',';
    s = s.split(grouping).join('').replace(decimal, '.');
  } else {
    const separator = lastComma >= 0 ? ',' : '.';
    const count = s.split(separator).length - 1;
    // One separator is a decimal point; several ("1,234,567") are grouping.
    s = count > 1 ? s.split(separator).join('') : s.replace(separator, '.');
  }
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(s)) return null;
  const value = Number(s);
  return Number.isFinite(value) ? value : null;
}

/** Decimals shown in an input: those of the field's step, else up to 2. */
export function decimalsOfStep(step: number | undefined): number {
  if (step === undefined) return 2;
  const text = String(step);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/**
 * A formatter for input values: no grouping (so "20000" never reads as 20.0) and Latin
 * digits (so the parser reads it back), with the locale's decimal separator.
 */
export function inputNumberFormat(locale: string, maxDecimals: number): Intl.NumberFormat {
  return new Intl.NumberFormat(locale, {
    useGrouping: false,
    maximumFractionDigits: maxDecimals,
    numberingSystem: 'latn',
  });
}
