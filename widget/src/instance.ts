/**
 * One mounted widget: renders the calculator at once (after its language pack, when the
 * locale needs one) with its defaults and the page's `data-values`, wires the visitor's
 * input, then applies the load answer's pre-fill (never over a touched field) or, on any
 * failure, falls back to a quiet "unavailable" note.
 */
import { getCalculator } from '../../src/calculators/index.ts';
import type { UnitSystem } from '../../src/calculators/definition.ts';
import { emit } from './events.ts';
import { createFormatter } from './format.ts';
import {
  applyPrefill,
  computeResult,
  createFormModel,
  currentValues,
  stateOf,
  switchSystem,
  valueSources,
  type FormModel,
} from './form-model.ts';
import { fetchPack, packInMemory, textLanguage, translator, type Pack } from './i18n.ts';
import { parseDecimal } from './locale.ts';
import { readOptions, type MountOptions, type WidgetOptions } from './options.ts';
import { createView, unavailableRoot, type Look, type View } from './render.ts';
import { adoptStyles } from './styles.ts';
import { pageTheme } from './theme.ts';
import { loadCalculator } from './transport.ts';

export interface Instance {
  destroy(): void;
}

export function createInstance(host: HTMLElement, overrides: MountOptions | undefined, apiOrigin: string): Instance {
  const options = readOptions(host, overrides);
  const doc = host.ownerDocument;
  // Reuse our own open root after destroy(): a shadow root can never be detached.
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  adoptStyles(shadow, options.nonce);
  // One signal ends everything on destroy: the pending load, every listener, the theme watch.
  const lifetime = new AbortController();
  const { signal } = lifetime;
  const destroy = () => {
    lifetime.abort();
    shadow.replaceChildren();
  };

  const calculator = getCalculator(options.calcId);
  // Asked first, rendered meanwhile: the answer can only arrive after this task ends.
  const answer =
    options.apiKey && calculator
      ? loadCalculator(
          apiOrigin,
          { apiKey: options.apiKey, calcId: options.calcId, domain: location.origin, context: options.context },
          signal,
        )
      : undefined;
  const language = textLanguage(options.locale);

  const start = (pack: Pack | undefined) => {
    if (signal.aborted) return;
    const look: Look = {
      theme: pageTheme(options.theme, doc),
      language: pack ? language : 'en',
      t: translator(pack),
    };
    const fail = (code: string, message: string) => {
      if (signal.aborted) return;
      shadow.replaceChildren(unavailableRoot(doc, look));
      console.warn(`[calc] calculator "${options.calcId}" unavailable: ${code}${message ? ` (${message})` : ''}`);
      emit(host, 'calc:error', { calcId: options.calcId, code, message });
    };
    if (!options.apiKey) return fail('missing_api_key', 'Set data-api-key.');
    if (!calculator || !answer) return fail('calculator_not_found', `There is no calculator "${options.calcId}".`);

    const model = createFormModel(calculator, options.units);
    applyPrefill(model, options.values, 'embed');
    const view = createView(doc, model, look, createFormatter(options.locale, options.currency, look.t));
    shadow.replaceChildren(view.root);
    if (options.theme === 'auto') watchPageTheme(doc, view.root, signal);
    wireInput(host, model, view, options, signal);
    recompute(host, model, view, options);

    void answer.then((outcome) => {
      if (signal.aborted) return;
      if (!outcome.ok) return fail(outcome.code, outcome.message);
      const changed = applyPrefill(model, outcome.values, 'webhook');
      for (const key of changed) {
        view.writeValue(key);
        view.writeValidity(key, 'typing');
      }
      view.writeVisibility();
      if (changed.length > 0) recompute(host, model, view, options);
      emit(host, 'calc:ready', { calcId: options.calcId, sources: valueSources(model), values: currentValues(model) });
    });
  };

  const inMemory = packInMemory(language);
  if (inMemory !== undefined) start(inMemory ?? undefined);
  else void fetchPack(apiOrigin, language).then(start);
  return { destroy };
}

/** `auto` follows the page: a page that switches its `color-scheme` switches the widget. */
function watchPageTheme(doc: Document, root: HTMLElement, signal: AbortSignal): void {
  const observer = new MutationObserver(() => {
    root.dataset.theme = pageTheme('auto', doc);
  });
  observer.observe(doc.documentElement, { attributes: true });
  if (doc.head) observer.observe(doc.head, { attributes: true, childList: true, subtree: true });
  signal.addEventListener('abort', () => observer.disconnect());
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
