import { useEffect, useState } from 'preact/hooks';
import { getCalculator } from '../../../src/calculators/index.ts';
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

/**
 * What a visitor's widget starts with, from `POST /v1/widget/preview`: the same answer a
 * load gives this account (webhook pull included) without counting a load. The values go
 * through the widget's own form model (aliases, unit systems, precedence) and formula, so
 * the fields, their sources and the result are the ones a visitor sees, in the units,
 * theme and locale chosen above.
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

  const calculator = answer ? getCalculator(answer.calcId) : undefined;
  const { options } = props;
  let view = null;
  if (calculator && answer) {
    const model = createFormModel(calculator, options.units || (calculator.unitSystems[0] ?? 'metric'));
    applyPrefill(model, answer.values, 'webhook');
    const result = computeResult(model);
    // An amount's currency is part of its formatted number; other units follow it.
    const unitText = (unit: string) => (unit === 'currency' ? '' : unit);
    const currencyOf = (unit: string) => (unit === 'currency' ? options.currency : '');
    view = (
      <div class={`preview theme-${options.theme}`}>
        <p class="preview-title">{calculator.title}</p>
        <dl>
          {model.fields
            .filter((state) => isVisible(model, state))
            .map((state) => {
              const { field } = state;
              const shown =
                state.value === null
                  ? '—'
                  : field.kind === 'select'
                    ? (field.options.find((option) => option.value === state.value)?.label ?? String(state.value))
                    : formatted(state.value, options.locale, 2, currencyOf(unitOf(field, model.system)));
              return (
                <div key={field.key} class="preview-field">
                  <dt>{field.label}</dt>
                  <dd>
                    {shown} {field.kind === 'number' ? unitText(unitOf(field, model.system)) : ''}{' '}
                    <span class={state.source === 'webhook' ? 'source webhook' : 'source'}>
                      {state.source === 'webhook' ? 'from your webhook' : 'default'}
                    </span>
                  </dd>
                </div>
              );
            })}
          {calculator.results.map((definition) => (
            <div key={definition.key} class="preview-field preview-result">
              <dt>{definition.label}</dt>
              <dd>
                {result?.[definition.key] === undefined
                  ? '—'
                  : formatted(
                      result[definition.key] as number,
                      options.locale,
                      definition.decimals,
                      currencyOf(unitOf(definition, model.system)),
                    )}{' '}
                {unitText(unitOf(definition, model.system))}
              </dd>
            </div>
          ))}
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
