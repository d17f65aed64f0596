/**
 * What a rendered form does as the visitor uses it: every edit recomputes the results and
 * emits the widget's events. Shared by the embed script and the dashboard's builder, which
 * shows an owner's unsaved definition in this same widget.
 */
import type { UnitSystem } from '../../src/definition/types.ts';
import { emit } from './events.ts';
import { computeResult, currentValues, stateOf, switchSystem, type FormModel } from './form-model.ts';
import { parseDecimal } from './locale.ts';
import type { WidgetOptions } from './options.ts';
import type { View } from './render.ts';

/** The events name the calculator they come from. */
type Calculator = Pick<WidgetOptions, 'calcId'>;

/** Shows the results of the current values and emits `calc:result`. */
export function recompute(host: HTMLElement, model: FormModel, view: View, options: Calculator): void {
  const result = computeResult(model);
  view.writeResult(result);
  emit(host, 'calc:result', { calcId: options.calcId, units: model.system, values: currentValues(model), result });
}

/** Follows the visitor's edits and unit switches: new values, validity, visibility, results, events. */
export function wireInput(
  host: HTMLElement,
  model: FormModel,
  view: View,
  options: Calculator,
  signal: AbortSignal,
): void {
  const changed = (key: string, value: number | string | boolean | null) => {
    recompute(host, model, view, options);
    emit(host, 'calc:change', { calcId: options.calcId, key, value, values: currentValues(model) });
  };

  view.form.addEventListener(
    'input',
    (event) => {
      const target = event.target;
      if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement)) return;
      const state = target.dataset.key === undefined ? undefined : stateOf(model, target.dataset.key);
      if (!state) return;
      state.touched = true;
      const kind = state.field.kind;
      state.value =
        kind === 'select'
          ? target.value
          : kind === 'toggle'
            ? (target as HTMLInputElement).checked
            : parseDecimal(target.value);
      view.writeValidity(state.field.key, 'typing');
      view.writeVisibility();
      changed(state.field.key, state.value);
    },
    { signal },
  );

  view.form.addEventListener(
    'change',
    (event) => {
      const target = event.target;
      if (!(target instanceof HTMLInputElement)) return;
      if (target.type === 'radio') {
        switchSystem(model, target.value as UnitSystem);
        view.writeSystem();
        changed('units', model.system);
      } else if (target.dataset.key !== undefined) {
        // Leaving a field (or Enter) is when an out-of-range value gets its message.
        view.writeValidity(target.dataset.key, 'commit');
      }
    },
    { signal },
  );

  // Enter in a field must not submit (and reload) anything.
  view.form.addEventListener('submit', (event) => event.preventDefault(), { signal });
}
