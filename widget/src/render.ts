/**
 * The widget's DOM inside its shadow root, built once per mount with plain DOM calls,
 * and the small updates the instance asks for. Every input has a <label>; its unit, help
 * and error text are linked with aria-describedby; results live in a role=status region,
 * the first result large, the others beneath it, a band as a tinted label beside its value.
 */
import { perSystem, type NumberField, type ResultDefinition } from '../../src/calculators/definition.ts';
import { bandOf } from '../../src/calculators/bands.ts';
import { h } from './dom.ts';
import { type Formatter, resultUnit } from './format.ts';
import { currentValues, isVisible, stateOf, unitOf, validityOf, visitorHelp, type FormModel } from './form-model.ts';
import { directionOf, type Translate } from './i18n.ts';
import { TEXTS } from './texts.ts';

/** How the root presents itself: resolved theme and the language of its texts. */
export interface Look {
  theme: 'light' | 'dark' | 'auto';
  language: string;
  t: Translate;
}

interface FieldView {
  row: HTMLElement;
  control: HTMLInputElement | HTMLSelectElement;
  unit?: HTMLElement;
  error?: HTMLElement;
  /** aria-describedby ids that are always there (unit, help). */
  describedBy: string[];
}

interface ResultView {
  definition: ResultDefinition;
  value: HTMLElement;
  unit: HTMLElement;
  band: HTMLElement;
}

export interface View {
  root: HTMLElement;
  form: HTMLFormElement;
  writeValue(key: string): void;
  /** Radios, unit labels and every converted value after a unit switch. */
  writeSystem(): void;
  /** 'commit' shows a message for an invalid value; 'typing' only clears or refreshes one. */
  writeValidity(key: string, moment: 'commit' | 'typing'): void;
  writeVisibility(): void;
  writeResult(result: Record<string, number> | null): void;
}

// `lang` lets screen readers pronounce the texts in their language; `dir` flips the layout.
function rootElement(doc: Document, look: Look): HTMLElement {
  return h(doc, 'div', {
    class: 'root',
    part: 'root',
    'data-theme': look.theme,
    lang: look.language,
    dir: directionOf(look.language),
  });
}

/** The quiet failure state: one short note, nothing else. */
export function unavailableRoot(doc: Document, look: Look): HTMLElement {
  const root = rootElement(doc, look);
  root.append(h(doc, 'p', { class: 'note', part: 'note unavailable' }, look.t(TEXTS.unavailable)));
  return root;
}

export function createView(doc: Document, model: FormModel, look: Look, format: Formatter): View {
  const { calculator } = model;
  const { t } = look;
  const root = rootElement(doc, look);
  const title = h(doc, 'p', { class: 'title', id: 'title', part: 'title' }, t(calculator.title));
  const form = h(doc, 'form', { 'aria-labelledby': 'title', novalidate: true, part: 'form' });
  const fieldViews = new Map<string, FieldView>();
  const radios: HTMLInputElement[] = [];

  if (calculator.unitSystems.length > 1) {
    const fieldset = h(doc, 'fieldset', { part: 'units' }, h(doc, 'legend', {}, t(TEXTS.units)));
    for (const system of calculator.unitSystems) {
      const radio = h(doc, 'input', { type: 'radio', name: 'units', value: system, part: 'radio' });
      radios.push(radio);
      fieldset.append(h(doc, 'label', {}, radio, t(TEXTS[system])));
    }
    form.append(fieldset);
  }

  for (const state of model.fields) {
    const field = state.field;
    const id = `f-${field.key}`;
    const describedBy: string[] = [];
    const row = h(
      doc,
      'div',
      { class: 'field', part: 'field' },
      h(doc, 'label', { for: id, part: 'label' }, t(field.label)),
    );
    let control: HTMLInputElement | HTMLSelectElement;
    let unit: HTMLElement | undefined;
    if (field.kind === 'select') {
      control = h(doc, 'select', { id, part: 'select', 'data-key': field.key });
      for (const option of field.options) control.append(h(doc, 'option', { value: option.value }, t(option.label)));
      row.append(control);
    } else {
      // inputmode=decimal, not type=number: type=number rejects "1,5" in most locales.
      control = h(doc, 'input', {
        id,
        type: 'text',
        inputmode: 'decimal',
        autocomplete: 'off',
        spellcheck: 'false',
        part: 'input',
        'data-key': field.key,
      });
      unit = h(doc, 'span', { class: 'unit', id: `u-${field.key}`, part: 'unit' });
      row.append(h(doc, 'div', { class: 'control' }, control, unit));
      describedBy.push(unit.id);
    }
    const help = visitorHelp(field);
    if (help) {
      row.append(h(doc, 'p', { class: 'help', id: `h-${field.key}`, part: 'help' }, t(help)));
      describedBy.push(`h-${field.key}`);
    }
    const error =
      field.kind === 'number'
        ? h(doc, 'p', { class: 'error', id: `e-${field.key}`, part: 'error', hidden: true })
        : undefined;
    if (error) row.append(error);
    form.append(row);
    fieldViews.set(field.key, { row, control, unit, error, describedBy });
  }

  const resultViews: ResultView[] = [];
  const list = h(doc, 'dl', { class: 'results', part: 'results' });
  for (const definition of calculator.results) {
    const value = h(doc, 'span', { class: 'value', part: 'result-value' });
    const unit = h(doc, 'span', { class: 'unit', part: 'result-unit' });
    const band = h(doc, 'span', { class: 'band', part: 'band' });
    list.append(
      h(
        doc,
        'div',
        { class: 'result', part: resultViews.length === 0 ? 'result result-main' : 'result' },
        h(doc, 'dt', { part: 'result-label' }, t(definition.label)),
        h(doc, 'dd', {}, h(doc, 'span', { class: 'amount' }, value, ' ', unit), ' ', band),
      ),
    );
    resultViews.push({ definition, value, unit, band });
  }
  // Polite live region: a screen reader reads the new result after the visitor's edit.
  const status = h(doc, 'div', { role: 'status', part: 'status' }, list);
  root.append(title, form, status);

  function setDescribedBy(view: FieldView, withError: boolean): void {
    const ids = withError && view.error ? [...view.describedBy, view.error.id] : view.describedBy;
    if (ids.length > 0) view.control.setAttribute('aria-describedby', ids.join(' '));
  }

  function writeValue(key: string): void {
    const state = stateOf(model, key);
    const view = fieldViews.get(key);
    if (!state || !view) return;
    if (state.field.kind === 'select') view.control.value = String(state.value ?? state.field.default);
    else view.control.value = typeof state.value === 'number' ? format.input(state.field, state.value) : '';
  }

  function writeValidity(key: string, moment: 'commit' | 'typing'): void {
    const state = stateOf(model, key);
    const view = fieldViews.get(key);
    if (!state || !view?.error || state.field.kind !== 'number') return;
    const validity = validityOf(state, model.system);
    const showing = !view.error.hidden;
    if (validity === 'valid' || (moment === 'typing' && !showing)) {
      if (validity === 'valid') {
        view.error.hidden = true;
        view.control.removeAttribute('aria-invalid');
        setDescribedBy(view, false);
      }
      return;
    }
    view.error.textContent = rangeMessage(state.field);
    view.error.hidden = false;
    view.control.setAttribute('aria-invalid', 'true');
    setDescribedBy(view, true);
  }

  function rangeMessage(field: NumberField): string {
    const unit = format.unit(unitOf(field, model.system));
    const min = format.plain(perSystem(field.min, model.system));
    const max = format.plain(perSystem(field.max, model.system));
    return t(TEXTS.range, { min, max: unit ? `${max} ${unit}` : max });
  }

  function writeSystem(): void {
    for (const radio of radios) radio.checked = radio.value === model.system;
    for (const state of model.fields) {
      const view = fieldViews.get(state.field.key);
      if (state.field.kind !== 'number' || !view?.unit) continue;
      view.unit.textContent = format.unit(unitOf(state.field, model.system));
      writeValue(state.field.key);
      writeValidity(state.field.key, 'typing');
    }
  }

  function writeVisibility(): void {
    for (const state of model.fields) {
      const view = fieldViews.get(state.field.key);
      if (view) view.row.hidden = !isVisible(model, state);
    }
  }

  function writeResult(result: Record<string, number> | null): void {
    const values = currentValues(model);
    for (const view of resultViews) {
      const value = result?.[view.definition.key];
      const known = value !== undefined && Number.isFinite(value);
      view.value.textContent = known ? format.result(view.definition, value) : '—';
      view.unit.textContent = known
        ? resultUnit(format, view.definition, model.system, format.unit('currency') !== '')
        : '';
      const band = known ? bandOf(view.definition, value, values) : undefined;
      view.band.textContent = band ? t(band.label) : '';
      // The tone colours the label; the label's text carries the meaning on its own.
      if (band?.tone) view.band.dataset.tone = band.tone;
      else delete view.band.dataset.tone;
    }
  }

  for (const state of model.fields) {
    writeValue(state.field.key);
    const view = fieldViews.get(state.field.key);
    if (view) setDescribedBy(view, false);
  }
  writeSystem();
  writeVisibility();
  return { root, form, writeValue, writeSystem, writeValidity, writeVisibility, writeResult };
}
