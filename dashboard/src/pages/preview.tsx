import { useEffect, useState } from 'preact/hooks';
import { perSystem } from '../../../src/calculators/definition.ts';
import { api, messageOf } from '../api.ts';
import type { PreviewBody, PublicCalculator } from '../types.ts';
import type { SnippetOptions } from './snippet.tsx';

type UnitSystem = PublicCalculator['unitSystems'][number];

function formatted(value: number | string, locale: string): string {
  if (typeof value !== 'number') return value;
  try {
    return new Intl.NumberFormat(locale || undefined, { maximumFractionDigits: 2 }).format(value);
  } catch {
    return String(value);
  }
}

/**
 * What a visitor's widget starts with, from `POST /v1/widget/preview`: the same answer a
 * load gives this account (webhook pull included) without counting a load. Shown per
 * field with where each value comes from, in the theme, units and locale chosen above.
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

  const calculator = answer?.calculator;
  const system: UnitSystem =
    props.options.units && calculator?.unitSystems.includes(props.options.units)
      ? props.options.units
      : (calculator?.unitSystems[0] ?? 'metric');
  const theme = props.options.theme === 'auto' ? 'auto' : props.options.theme;
  return (
    <section aria-labelledby="preview-heading" class="card" aria-busy={busy}>
      <h2 id="preview-heading">Live preview</h2>
      {error && <p role="alert">{error}</p>}
      {calculator && answer && (
        <div class={`preview theme-${theme}`}>
          <p class="preview-title">{calculator.title}</p>
          <dl>
            {calculator.fields.map((field) => {
              const pulled = answer.values[field.key];
              const value = pulled ?? perSystem(field.default, system);
              const unit = field.kind === 'number' && field.unit ? perSystem(field.unit, system) : '';
              return (
                <div key={field.key} class="preview-field">
                  <dt>
                    {field.label} <code>{field.key}</code>
                  </dt>
                  <dd>
                    {formatted(value, props.options.locale)} {unit === 'currency' ? props.options.currency : unit}{' '}
                    <span class={pulled === undefined ? 'source' : 'source webhook'}>
                      {pulled === undefined ? 'default' : 'from your webhook'}
                    </span>
                  </dd>
                </div>
              );
            })}
          </dl>
        </div>
      )}
      <button type="button" onClick={() => setAgain((n) => n + 1)} disabled={busy}>
        Refresh preview
      </button>
    </section>
  );
}
