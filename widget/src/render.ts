/**
 * The widget's DOM inside its shadow root, built once per mount from a definition with
 * plain DOM calls (every text set as text, never as HTML), and the small updates the
 * instance asks for. Every input has a <label>; its unit, help and error text are linked
 * with aria-describedby; a toggle is a labelled checkbox; results live in a role=status
 * region, the primary output large, the others beneath it, a band as a tinted label beside
 * its value, "—" for an output without a value.
 */
import type { Outputs } from '../../src/definition/evaluate.ts';
import { perSystem } from '../../src/definition/systems.ts';
import type { NumberInput, Output } from '../../src/definition/types.ts';
import { bandOf, primaryOutput } from '../../src/definition/view.ts';
import { h } from './dom.ts';
import type { Formatter, Say } from './format.ts';
import { currentValues, isVisible, stateOf, validityOf, visitorHelp, type FormModel } from './form-model.ts';
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
  output: Output;
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
  writeResult(result: Outputs | null): void;
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

/**
 * A root holding one short note: the failure state, or the wait for a calculator's
 * definition (a status, so a screen reader announces it).
 */
export function noteRoot(doc: Document, look: Look, part: 'unavailable' | 'loading'): HTMLElement {
  const root = rootElement(doc, look);
  root.append(
    h(doc, 'p', { class: 'note', part: `note ${part}`, role: part === 'loading' && 'status' }, look.t(TEXTS[part])),
  );
  return root;
}

export function createView(doc: Document, model: FormModel, look: Look, say: Say, format: Formatter): View {
  const { definition, compiled } = model;
  const { t } = look;
  const root = rootElement(doc, look);
  const title = h(doc, 'p', { class: 'title', id: 'title', part: 'title' }, say(definition.title));
  const form = h(doc, 'form', { 'aria-labelledby': 'title', novalidate: true, part: 'form' });
  const fieldViews = new Map<string, FieldView>();
  const radios: HTMLInputElement[] = [];

  if (compiled.systems.length > 1) {
    const fieldset = h(doc, 'fieldset', { part: 'units' }, h(doc, 'legend', {}, t(TEXTS.units)));
    for (const system of compiled.systems) {
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
    const label = h(doc, 'label', { for: id, part: 'label' }, say(field.label));
    const row = h(doc, 'div', { class: 'field', part: 'field' });
    let control: HTMLInputElement | HTMLSelectElement;
    let unit: HTMLElement | undefined;
    if (field.kind === 'select') {
      control = h(doc, 'select', { id, part: 'select', 'data-key': field.key });
      for (const option of field.options) control.append(h(doc, 'option', { value: option.value }, say(option.label)));
      row.append(label, control);
    } else if (field.kind === 'toggle') {
      // A checkbox announced as a switch (on/off), with its label beside it.
      control = h(doc, 'input', { id, type: 'checkbox', role: 'switch', part: 'toggle', 'data-key': field.key });
      row.append(h(doc, 'div', { class: 'check' }, control, label));
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
      row.append(label, h(doc, 'div', { class: 'control' }, control, unit));
      describedBy.push(unit.id);
    }
    const help = visitorHelp(field);
    if (help) {
      row.append(h(doc, 'p', { class: 'help', id: `h-${field.key}`, part: 'help' }, say(help)));
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

  // The primary output leads (set large); the others follow in their order.
  const primary = primaryOutput(definition);
  const resultViews: ResultView[] = [];
  const list = h(doc, 'dl', { class: 'results', part: 'results' });
  for (const output of [primary, ...definition.outputs.filter((output) => output !== primary)]) {
    const value = h(doc, 'span', { class: 'value', part: 'result-value' });
    const unit = h(doc, 'span', { class: 'unit', part: 'result-unit' });
    const band = h(doc, 'span', { class: 'band', part: 'band' });
    list.append(
      h(
        doc,
        'div',
        { class: 'result', part: output === primary ? 'result result-main' : 'result' },
        h(doc, 'dt', { part: 'result-label' }, say(output.label)),
        h(doc, 'dd', {}, h(doc, 'span', { class: 'amount' }, value, ' ', unit), ' ', band),
      ),
    );
    resultViews.push({ output, value, unit, band });
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
    const { field, value } = state;
    if (field.kind === 'select') view.control.value = String(value ?? field.default);
    else if (field.kind === 'toggle') (view.control as HTMLInputElement).checked = value === true;
    else view.control.value = typeof value === 'number' ? format.input(field, value) : '';
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

  function rangeMessage(field: NumberInput): string {
    const unit = field.unit === undefined ? '' : format.unit(perSystem(field.unit, model.system));
    const min = format.plain(perSystem(field.min, model.system));
    const max = format.plain(perSystem(field.max, model.system));
    return t(TEXTS.range, { min, max: unit ? `${max} ${unit}` : max });
  }

  function writeSystem(): void {
    for (const radio of radios) radio.checked = radio.value === model.system;
    for (const state of model.fields) {
      const view = fieldViews.get(state.field.key);
      if (state.field.kind !== 'number' || !view?.unit) continue;
      const unit = state.field.unit;
      view.unit.textContent = unit === undefined ? '' : format.unit(perSystem(unit, model.system));
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

  function writeResult(result: Outputs | null): void {
    const values = currentValues(model);
    for (const view of resultViews) {
      const value = result?.[view.output.key];
      const known = typeof value === 'number';
      view.value.textContent = known ? format.result(view.output, value) : '—';
      view.unit.textContent = known ? format.resultUnit(view.output, model.system) : '';
      const band = known ? bandOf(view.output, value, values) : undefined;
      view.band.textContent = band ? say(band.label) : '';
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
