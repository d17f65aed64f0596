/** The events a widget emits on its host element: bubbling and composed, so a listener on the document sees them. */
import type { FieldValues, UnitSystem } from '../../src/calculators/definition.ts';
import type { ValueSource } from './form-model.ts';

export interface CalcEvents {
  /** `sources`: per shown field, where its value came from; `values`: the shown values. */
  'calc:ready': { calcId: string; sources: Record<string, ValueSource>; values: FieldValues };
  'calc:change': { calcId: string; key: string; value: number | string | null; values: FieldValues };
  'calc:result': { calcId: string; units: UnitSystem; values: FieldValues; result: Record<string, number> | null };
  'calc:error': { calcId: string; code: string; message: string };
}

export function emit<K extends keyof CalcEvents>(host: Element, type: K, detail: CalcEvents[K]): void {
  host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}
