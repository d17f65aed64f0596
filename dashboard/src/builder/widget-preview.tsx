/**
 * The draft in the real widget: the embed script's own form model, renderer, styles and
 * wiring (widget/src/), in a shadow root as on a visitor's page, so the owner types into
 * exactly what visitors will see, with the values their webhook pre-fills.
 */
import { useEffect, useRef } from 'preact/hooks';
import { textIn } from '../../../src/definition/text.ts';
import type { Definition, InputValues, Text } from '../../../src/definition/types.ts';
import { createFormatter } from '../../../widget/src/format.ts';
import { translator } from '../../../widget/src/i18n.ts';
import { mountForm } from '../../../widget/src/interaction.ts';
import type { Look } from '../../../widget/src/render.ts';
import { adoptStyles } from '../../../widget/src/styles.ts';

export interface PreviewLook {
  /** The language of the owner's texts (the widget's own few words stay English here). */
  language: string;
  theme: Look['theme'];
  currency: string;
}

export function WidgetPreview(props: {
  calcId: string;
  definition: Definition;
  values: InputValues;
  look: PreviewLook;
}) {
  const host = useRef<HTMLDivElement>(null);
  const { definition, values, look } = props;
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const lifetime = new AbortController();
    const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
    adoptStyles(shadow, undefined);
    const t = translator(undefined);
    const say = (text: Text) => textIn(text, look.language);
    const currency = /^[A-Z]{3}$/.test(look.currency) ? look.currency : undefined;
    try {
      mountForm(element, shadow, definition, {
        calculator: { calcId: props.calcId },
        units: definition.unitSystems?.[0] ?? 'metric',
        values,
        source: 'webhook',
        look: { theme: look.theme, language: look.language, t },
        say,
        format: createFormatter(look.language, currency, t, say),
        signal: lifetime.signal,
      });
    } catch {
      // Only a definition without problems reaches here; should one fail anyway, show nothing rather than break the page.
      shadow.replaceChildren();
    }
    return () => lifetime.abort();
  }, [definition, values, look.language, look.theme, look.currency]);
  return <div ref={host} class="widget-preview" data-calc-id={props.calcId} />;
}
