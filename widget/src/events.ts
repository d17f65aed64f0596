/** The events a widget emits on its host element: bubbling and composed, so a listener on the document sees them. */
import type { Outputs } from '../../src/definition/evaluate.ts';
import type { InputValues, UnitSystem } from '../../src/definition/types.ts';
import type { ValueSource } from './form-model.ts';

export interface CalcEvents {
  /** `sources`: per shown field, where its value came from; `values`: the shown values. */
  'calc:ready': { calcId: string; sources: Record<string, ValueSource>; values: InputValues };
  'calc:change': { calcId: string; key: string; value: number | string | boolean | null; values: InputValues };
  /** `result`: null when no output has a value (an input missing or invalid), else each output, null when not finite. */
  'calc:result': { calcId: string; units: UnitSystem; values: InputValues; result: Outputs | null };
  'calc:error': { calcId: string; code: string; message: string };
}

export function emit<K extends keyof CalcEvents>(host: Element, type: K, detail: CalcEvents[K]): void {
  host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}
