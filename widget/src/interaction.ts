/**
 * What a rendered form does as the visitor uses it: every edit recomputes the results and
 * emits the widget's events, and a visitor's own edit reports the funnel when there is one.
 * Shared by the embed script and the dashboard's builder, which shows an owner's unsaved
 * definition in this same widget (and reports no funnel: the owner is not a visitor).
 */
import type { Definition, UnitSystem } from '../../src/definition/types.ts';
import { primaryOutput } from '../../src/definition/view.ts';
import { emit } from './events.ts';
import {
  applyPrefill,
  computeResult,
  createFormModel,
  currentValues,
  stateOf,
  switchSystem,
  type FormModel,
} from './form-model.ts';
import type { Formatter, Say } from './format.ts';
import type { Funnel } from './funnel.ts';
import { parseDecimal } from './locale.ts';
import type { WidgetOptions } from './options.ts';
import { createView, type Look, type View } from './render.ts';

/** The events name the calculator they come from. */
type Calculator = Pick<WidgetOptions, 'calcId'>;

/** Shows the results of the current values, emits `calc:result` and returns them. */
export function recompute(host: HTMLElement, model: FormModel, view: View, options: Calculator) {
  const result = computeResult(model);
  view.writeResult(result);
  emit(host, 'calc:result', { calcId: options.calcId, units: model.system, values: currentValues(model), result });
  return result;
}

/** Follows the visitor's edits and unit switches: new values, validity, visibility, results, events, funnel. */
function wireInput(
  host: HTMLElement,
  model: FormModel,
  view: View,
  options: Calculator,
  signal: AbortSignal,
  funnel?: Funnel,
): void {
  const main = primaryOutput(model.definition).key;
  const changed = (key: string, value: number | string | boolean | null) => {
    const result = recompute(host, model, view, options);
    emit(host, 'calc:change', { calcId: options.calcId, key, value, values: currentValues(model) });
    return result;
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
      const result = changed(state.field.key, state.value);
      // Only the visitor's own change starts the funnel: not pre-fill, not a page script.
      funnel?.changed(event.isTrusted, typeof result?.[main] === 'number');
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

/**
 * Renders `definition` into `shadow` in `units`, with `values` applied as `source` over its
 * defaults, wires the visitor's input (reporting the funnel when there is one) and shows
 * the first result: the embed script's form and the builder's preview alike.
 */
export function mountForm(
  host: HTMLElement,
  shadow: ShadowRoot,
  definition: Definition,
  form: {
    calculator: Calculator;
    units: UnitSystem;
    values: Readonly<Record<string, unknown>>;
    source: 'embed' | 'webhook';
    look: Look;
    say: Say;
    format: Formatter;
    signal: AbortSignal;
    funnel?: Funnel;
  },
): [FormModel, View] {
  const model = createFormModel(definition, form.units);
  applyPrefill(model, form.values, form.source);
  const view = createView(host.ownerDocument, model, form.look, form.say, form.format);
  shadow.replaceChildren(view.root);
  wireInput(host, model, view, form.calculator, form.signal, form.funnel);
  recompute(host, model, view, form.calculator);
  return [model, view];
}
