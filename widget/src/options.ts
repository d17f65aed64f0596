/** A widget's options: `mount()` arguments win over the element's data attributes. */
import type { InputValues, UnitSystem } from '../../src/definition/types.ts';
import { resolveLocale, unitSystemForLocale } from './locale.ts';
import { toInputValues } from './transport.ts';

export type Theme = 'light' | 'dark' | 'auto';

/** What `CalcWidget.mount(el, options)` accepts; each mirrors a `data-*` attribute. */
export interface MountOptions {
  calcId?: string;
  apiKey?: string;
  units?: UnitSystem;
  theme?: Theme;
  locale?: string;
  /** ISO 4217 code (e.g. "EUR") for amounts; without it amounts are plain numbers. */
  currency?: string;
  /** Only used where constructable stylesheets are missing (a `<style nonce>` fallback). */
  nonce?: string;
  /** Starting values from the page (`data-values` as JSON); the webhook's and the visitor's win. */
  values?: InputValues;
  /** Visitor context token (`data-context`) minted by the owner's backend; sent as is. */
  context?: string;
  /** `off`: report no funnel steps for this element (`data-analytics`). */
  analytics?: string;
}

export interface WidgetOptions {
  calcId: string;
  apiKey: string;
  units: UnitSystem;
  theme: Theme;
  locale: string;
  currency: string | undefined;
  nonce: string | undefined;
  values: InputValues;
  context: string | undefined;
  analytics: boolean;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined {
  return allowed.find((candidate) => candidate === value);
}

/** `data-values`: a JSON object; anything else (or broken JSON) gives no values. */
function embedValues(option: InputValues | undefined, attribute: string | undefined): InputValues {
  if (option) return toInputValues(option);
  try {
    return toInputValues(attribute ? JSON.parse(attribute) : undefined);
  } catch {
    return {};
  }
}

function currencyCode(value: string | undefined): string | undefined {
  const code = value?.trim().toUpperCase();
  return code && /^[A-Z]{3}$/.test(code) ? code : undefined;
}

/**
 * What the requests need (the calculator, the key, the visitor context): read apart, so
 * they go out before the rest of the options, whose locale costs Intl's first use.
 */
export function readRequest(
  element: HTMLElement,
  overrides: MountOptions = {},
): Pick<WidgetOptions, 'calcId' | 'apiKey' | 'context'> {
  const data = element.dataset;
  return {
    calcId: (overrides.calcId ?? data.calcId ?? '').trim(),
    apiKey: (overrides.apiKey ?? data.apiKey ?? '').trim(),
    // The server checks it; an empty attribute is no context.
    context: (overrides.context ?? data.context)?.trim() || undefined,
  };
}

/** `pageAnalytics`: false when the page turned the funnel off for every element (docs/embedding.md). */
export function readOptions(element: HTMLElement, overrides: MountOptions = {}, pageAnalytics = true): WidgetOptions {
  const data = element.dataset;
  const locale = resolveLocale([
    overrides.locale,
    data.locale,
    element.ownerDocument.documentElement.lang,
    navigator.language,
  ]);
  return {
    ...readRequest(element, overrides),
    units:
      oneOf(overrides.units ?? data.units, ['metric', 'imperial'] as const) ??
      unitSystemForLocale(locale, navigator.language),
    theme: oneOf(overrides.theme ?? data.theme, ['light', 'dark', 'auto'] as const) ?? 'light',
    locale,
    currency: currencyCode(overrides.currency ?? data.currency),
    nonce: overrides.nonce ?? data.nonce,
    values: embedValues(overrides.values, data.values),
    analytics: pageAnalytics && (overrides.analytics ?? data.analytics) !== 'off',
  };
}
