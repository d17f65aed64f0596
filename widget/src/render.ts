/**
 * The widget's DOM inside its shadow root, built once per mount with plain DOM calls,
 * and the small updates the instance asks for. Every input has a <label>; its unit, help
 * and error text are linked with aria-describedby; results live in a role=status region.
 */
import { perSystem, type Field, type NumberField, type ResultDefinition } from '../../src/calculators/definition';
import { bandFor } from '../../src/calculators/bands';
import { h } from './dom';
import { type Formatter, resultUnit } from './format';
import { currentValues, isVisible, stateOf, unitOf, validityOf, type FormModel } from './form-model';
import type { Theme } from './options';

const UNAVAILABLE = 'Calculator unavailable';
const SYSTEM_LABELS = { metric: 'Metric', imperial: 'Imperial' } as const;

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

function rootElement(doc: Document, theme: Theme): HTMLElement {
  return h(doc, 'div', { class: 'root', part: 'root', 'data-theme': theme });
}

/** The quiet failure state: one short note, nothing else. */
export function unavailableRoot(doc: Document, theme: Theme): HTMLElement {
  const root = rootElement(doc, theme);
  root.append(h(doc, 'p', { class: 'note', part: 'note unavailable' }, UNAVAILABLE));
  return root;
}

/** A display alias's help text names API keys, which means nothing to a visitor. */
function visitorHelp(field: Field): string | undefined {
  return field.kind === 'number' && field.aliasOf ? undefined : field.help;
}

export function createView(doc: Document, model: FormModel, theme: Theme, format: Formatter): View {
  const { calculator } = model;
  const root = rootElement(doc, theme);
  const title = h(doc, 'p', { class: 'title', id: 'title', part: 'title' }, calculator.title);
  const form = h(doc, 'form', { 'aria-labelledby': 'title', novalidate: true, part: 'form' });
  const fieldViews = new Map<string, FieldView>();
  const radios: HTMLInputElement[] = [];

  if (calculator.unitSystems.length > 1) {
    const fieldset = h(doc, 'fieldset', { part: 'units' }, h(doc, 'legend', {}, 'Units'));
    for (const system of calculator.unitSystems) {
      const radio = h(doc, 'input', { type: 'radio', name: 'units', value: system, part: 'radio' });
      radios.push(radio);
      fieldset.append(h(doc, 'label', {}, radio, SYSTEM_LABELS[system]));
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
      h(doc, 'label', { for: id, part: 'label' }, field.label),
    );
    let control: HTMLInputElement | HTMLSelectElement;
    let unit: HTMLElement | undefined;
    if (field.kind === 'select') {
      control = h(doc, 'select', { id, part: 'select', 'data-key': field.key });
      for (const option of field.options) control.append(h(doc, 'option', { value: option.value }, option.label));
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
      row.append(h(doc, 'p', { class: 'help', id: `h-${field.key}`, part: 'help' }, help));
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
    const value = h(doc, 'span', { part: 'result-value' });
    const unit = h(doc, 'span', { class: 'unit', part: 'result-unit' });
    const band = h(doc, 'span', { class: 'band', part: 'band' });
    list.append(
      h(
        doc,
        'div',
        { class: 'result', part: 'result' },
        h(doc, 'dt', { part: 'result-label' }, definition.label),
        h(doc, 'dd', {}, value, ' ', unit, ' ', band),
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
    return `Enter a number from ${min} to ${max}${unit ? ` ${unit}` : ''}.`;
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
      view.band.textContent = known ? (bandFor(view.definition, value, values) ?? '') : '';
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
