/**
 * One mounted widget. A catalogue calculator (bundled in the script) renders at once
 * (after its language pack, when the locale needs one) with its defaults and the page's
 * `data-values`; any other renders from the definition in the load answer, with a
 * loading note meanwhile. Then the answer's pre-fill applies (never over a touched
 * field); on any failure, a quiet "unavailable" note replaces everything.
 */
import { getTemplate } from '../../src/calculators/index.ts';
import { textIn } from '../../src/definition/text.ts';
import type { Definition, Text } from '../../src/definition/types.ts';
import { emit } from './events.ts';
import { createFormatter, type Say } from './format.ts';
import { applyPrefill, createFormModel, currentValues, valueSources, type FormModel } from './form-model.ts';
import { fetchPack, packInMemory, textLanguage, translator, type Pack } from './i18n.ts';
import { recompute, wireInput } from './interaction.ts';
import { readOptions, type MountOptions } from './options.ts';
import { createView, noteRoot, type Look, type View } from './render.ts';
import { adoptStyles } from './styles.ts';
import { pageTheme } from './theme.ts';
import { loadCalculator, type LoadOutcome } from './transport.ts';

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

  const bundled = getTemplate(options.calcId)?.definition;
  // Asked first, rendered meanwhile: the answer can only arrive after this task ends.
  const answer = options.apiKey
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
      shadow.replaceChildren(noteRoot(doc, look, 'unavailable'));
      console.warn(`[calc] calculator "${options.calcId}" unavailable: ${code}${message ? ` (${message})` : ''}`);
      emit(host, 'calc:error', { calcId: options.calcId, code, message });
    };
    if (!answer) return fail('missing_api_key', 'Set data-api-key.');

    /** Renders `definition` with its defaults and the page's values, and wires the visitor's input. */
    const show = (definition: Definition, say: Say): [FormModel, View] => {
      const model = createFormModel(definition, options.units);
      applyPrefill(model, options.values, 'embed');
      const view = createView(doc, model, look, say, createFormatter(options.locale, options.currency, look.t, say));
      shadow.replaceChildren(view.root);
      if (options.theme === 'auto') watchPageTheme(doc, view.root, signal);
      wireInput(host, model, view, options, signal);
      recompute(host, model, view, options);
      return [model, view];
    };
    /** The answer's pre-fill over what is shown, then calc:ready. */
    const ready = ([model, view]: [FormModel, View], outcome: LoadOutcome & { ok: true }) => {
      const changed = applyPrefill(model, outcome.values, 'webhook');
      for (const key of changed) {
        view.writeValue(key);
        view.writeValidity(key, 'typing');
      }
      view.writeVisibility();
      if (changed.length > 0) recompute(host, model, view, options);
      emit(host, 'calc:ready', { calcId: options.calcId, sources: valueSources(model), values: currentValues(model) });
    };

    // The catalogue's texts are English, translated by the language pack; an owner's are
    // given per language and chosen here, shown as they are.
    const shown = bundled && show(bundled, (text: Text) => look.t(textIn(text, 'en')));
    if (!shown) shadow.replaceChildren(noteRoot(doc, look, 'loading'));
    void answer.then((outcome) => {
      if (signal.aborted) return;
      if (!outcome.ok) return fail(outcome.code, outcome.message);
      try {
        ready(shown || show(outcome.definition as Definition, (text: Text) => textIn(text, look.language)), outcome);
      } catch (error) {
        // A definition this script cannot show (a malformed answer): never an error in the page.
        fail('bad_response', `No calculator to show: ${error}`);
      }
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
