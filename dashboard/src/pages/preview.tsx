import { useEffect, useState } from 'preact/hooks';
import { perSystem } from '../../../src/definition/systems.ts';
import { textIn } from '../../../src/definition/text.ts';
import type { Output, UnitSystem } from '../../../src/definition/types.ts';
import { DEFAULT_FORMAT } from '../../../src/definition/view.ts';
import { applyPrefill, computeResult, createFormModel, isVisible, unitOf } from '../../../widget/src/form-model.ts';
import { api, messageOf } from '../api.ts';
import type { PreviewBody } from '../../../src/api-bodies.ts';
import type { SnippetOptions } from './snippet.tsx';

/**
 * A value as the widget shows it. An amount in the chosen currency is placed by Intl
 * ("$20,000.00" in English, "20.000,00 €" in German), never a code after the number.
 */
function formatted(value: number | string, locale: string, decimals = 2, currency = ''): string {
  if (typeof value !== 'number') return value;
  try {
    const style = currency ? { style: 'currency' as const, currency } : {};
    return new Intl.NumberFormat(locale || undefined, { maximumFractionDigits: decimals, ...style }).format(value);
  } catch {
    return currency ? `${value} ${currency}` : String(value);
  }
}

/** An output's unit as the preview shows it: `currency` for an amount, `%` for a percentage. */
function outputUnit(output: Output, system: UnitSystem): string {
  const format = output.format;
  if (format && format.style !== 'number') return format.style === 'currency' ? 'currency' : '%';
  return format?.unit === undefined ? '' : textIn(perSystem(format.unit, system), 'en');
}

/**
 * What a visitor's widget starts with, from `POST /v1/widget/preview`: the same answer a
 * load gives this account (webhook pull included) without counting a load. The answer's
 * definition goes through the widget's own form model (aliases, unit systems, precedence)
 * and evaluator, so the fields, their sources and the results are the ones a visitor
 * sees, in the units, theme and locale chosen above.
 */
export function Preview(props: { calcId: string; options: SnippetOptions; round: number }) {
  const [answer, setAnswer] = useState<PreviewBody | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [again, setAgain] = useState(0);
  useEffect(() => {
    let live = true;
    setBusy(true);
    api<PreviewBody>('POST', '/v1/widget/preview', { calcId: props.calcId }).then(
      (body) => {
        if (!live) return;
        setAnswer(body);
        setError(null);
        setBusy(false);
      },
      (failure) => {
        if (!live) return;
        setError(messageOf(failure));
        setBusy(false);
      },
    );
    return () => {
      live = false;
    };
  }, [props.calcId, props.round, again]);

  const definition = answer?.calculator.definition;
  const { options } = props;
  let view = null;
  if (definition && answer) {
    const model = createFormModel(definition, options.units || (definition.unitSystems?.[0] ?? 'metric'));
    applyPrefill(model, answer.values, 'webhook');
    const result = computeResult(model);
    // An amount's currency is part of its formatted number; other units follow it.
    const unitText = (unit: string) => (unit === 'currency' ? '' : unit);
    const currencyOf = (unit: string) => (unit === 'currency' ? options.currency : '');
    view = (
      <div class={`preview theme-${options.theme}`}>
        <p class="preview-title">{textIn(definition.title, 'en')}</p>
        <dl>
          {model.fields
            .filter((state) => isVisible(model, state))
            .map((state) => {
              const { field, value } = state;
              const unit = field.kind === 'number' ? unitOf(field, model.system) : '';
              const shown =
                value === null
                  ? '—'
                  : field.kind === 'select'
                    ? textIn(field.options.find((option) => option.value === value)?.label ?? String(value), 'en')
                    : typeof value === 'boolean'
                      ? value
                        ? 'on'
                        : 'off'
                      : formatted(value, options.locale, 2, currencyOf(unit));
              return (
                <div key={field.key} class="preview-field">
                  <dt>{textIn(field.label, 'en')}</dt>
                  <dd>
                    {shown} {unitText(unit)}{' '}
                    <span class={state.source === 'webhook' ? 'source webhook' : 'source'}>
                      {state.source === 'webhook' ? 'from your webhook' : 'default'}
                    </span>
                  </dd>
                </div>
              );
            })}
          {definition.outputs.map((output) => {
            const unit = outputUnit(output, model.system);
            const value = result?.[output.key];
            return (
              <div key={output.key} class="preview-field preview-result">
                <dt>{textIn(output.label, 'en')}</dt>
                <dd>
                  {typeof value === 'number'
                    ? formatted(value, options.locale, (output.format ?? DEFAULT_FORMAT).decimals, currencyOf(unit))
                    : '—'}{' '}
                  {unitText(unit)}
                </dd>
              </div>
            );
          })}
        </dl>
      </div>
    );
  }
  return (
    <section aria-labelledby="preview-heading" class="card" aria-busy={busy}>
      <h2 id="preview-heading">Live preview</h2>
      {error && <p role="alert">{error}</p>}
      {view}
      <button type="button" onClick={() => setAgain((n) => n + 1)} disabled={busy}>
        Refresh preview
      </button>
    </section>
  );
}
