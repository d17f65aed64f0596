/**
 * One mounted widget: renders the calculator with its defaults at once, wires the
 * visitor's input, then applies the load answer's pre-fill (never over a touched field)
 * or, on any failure, falls back to a quiet "unavailable" note.
 */
import { getCalculator } from '../../src/calculators/index';
import type { UnitSystem } from '../../src/calculators/definition';
import { emit } from './events';
import { createFormatter } from './format';
import {
  applyPrefill,
  computeResult,
  createFormModel,
  currentValues,
  stateOf,
  switchSystem,
  type FormModel,
} from './form-model';
import { parseDecimal } from './locale';
import { readOptions, type MountOptions, type WidgetOptions } from './options';
import { createView, unavailableRoot, type View } from './render';
import { adoptStyles } from './styles';
import { loadCalculator } from './transport';

export interface Instance {
  destroy(): void;
}

export function createInstance(host: HTMLElement, overrides: MountOptions | undefined, apiOrigin: string): Instance {
  const options = readOptions(host, overrides);
  // Reuse our own open root after destroy(): a shadow root can never be detached.
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  adoptStyles(shadow, options.nonce);
  // One signal ends everything on destroy: the pending load and every listener.
  const lifetime = new AbortController();
  const destroy = () => {
    lifetime.abort();
    shadow.replaceChildren();
  };

  const fail = (code: string, message: string) => {
    if (lifetime.signal.aborted) return;
    shadow.replaceChildren(unavailableRoot(host.ownerDocument, options.theme));
    console.warn(`[calc] calculator "${options.calcId}" unavailable: ${code}${message ? ` (${message})` : ''}`);
    emit(host, 'calc:error', { calcId: options.calcId, code, message });
  };

  const calculator = getCalculator(options.calcId);
  if (!options.apiKey || !calculator) {
    if (!options.apiKey) fail('missing_api_key', "Set data-api-key to your account's public key.");
    else fail('calculator_not_found', `There is no calculator "${options.calcId}".`);
    return { destroy };
  }

  // Asked first, rendered meanwhile: the answer can only arrive after this task ends.
  const answer = loadCalculator(
    apiOrigin,
    { apiKey: options.apiKey, calcId: options.calcId, domain: location.origin },
    lifetime.signal,
  );
  const model = createFormModel(calculator, options.units);
  const view = createView(host.ownerDocument, model, options.theme, createFormatter(options.locale, options.currency));
  shadow.replaceChildren(view.root);
  wireInput(host, model, view, options, lifetime.signal);
  recompute(host, model, view, options);

  void answer.then((outcome) => {
    if (lifetime.signal.aborted) return;
    if (!outcome.ok) return fail(outcome.code, outcome.message);
    const changed = applyPrefill(model, outcome.values);
    for (const key of changed) {
      view.writeValue(key);
      view.writeValidity(key, 'typing');
    }
    view.writeVisibility();
    if (changed.length > 0) recompute(host, model, view, options);
    emit(host, 'calc:ready', { calcId: options.calcId });
  });

  return { destroy };
}

function recompute(host: HTMLElement, model: FormModel, view: View, options: WidgetOptions): void {
  const result = computeResult(model);
  view.writeResult(result);
  emit(host, 'calc:result', { calcId: options.calcId, units: model.system, values: currentValues(model), result });
}

function wireInput(host: HTMLElement, model: FormModel, view: View, options: WidgetOptions, signal: AbortSignal): void {
  const changed = (key: string, value: number | string | null) => {
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
      state.value = state.field.kind === 'select' ? target.value : parseDecimal(target.value);
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
