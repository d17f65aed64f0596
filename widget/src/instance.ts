/**
 * One mounted widget. A catalogue calculator renders with its defaults and the page's
 * `data-values` from whichever arrives first: its template file (fetched beside the load
 * request, cached for a year) or the load answer's definition; so it shows before a slow
 * load answer, and without its file when the file fails. Any other id (an owner's
 * calculator) renders from the load answer, with a loading note meanwhile. Either waits for
 * its language pack when the locale needs one. Then the answer's pre-fill applies (never
 * over a touched field), and the offer to send the result (a chunk of its own) when the
 * owner asks for it; on any failure, a quiet "unavailable" note replaces everything.
 */
import { textIn } from '../../src/definition/text.ts';
import type { Definition, Text } from '../../src/definition/types.ts';
import { templateUrl } from './catalogue.ts';
import { emit } from './events.ts';
import { createFormatter, type Say } from './format.ts';
import { applyPrefill, computeResult, currentValues, valueSources, type FormModel } from './form-model.ts';
import { createFunnel } from './funnel.ts';
import { fetchPack, packInMemory, textLanguage, translator, type Pack } from './i18n.ts';
import { mountForm, recompute } from './interaction.ts';
import { readOptions, readRequest, type MountOptions } from './options.ts';
import { noteRoot, type Look, type View } from './render.ts';
import { fetchFile, fileInMemory } from './static-file.ts';
import { adoptStyles } from './styles.ts';
import { pageTheme } from './theme.ts';
import { loadResultsChunk } from './chunks.ts';
import type { Sent } from './results.ts';
import { isRecord, loadCalculator, submitResult, type LoadOutcome } from './transport.ts';

export interface Instance {
  destroy(): void;
}

export function createInstance(
  host: HTMLElement,
  overrides: MountOptions | undefined,
  apiOrigin: string,
  pageAnalytics = true,
): Instance {
  // Reuse our own open root after destroy(): a shadow root can never be detached. (First:
  // an element that cannot take one spends no load.)
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  // One signal ends everything on destroy: the pending load, every listener, the theme watch.
  const lifetime = new AbortController();
  const { signal } = lifetime;
  const destroy = () => {
    lifetime.abort();
    shadow.replaceChildren();
  };

  // The requests go out first, so that the rest of this task (Intl's first use, the
  // styles) runs while they travel; the answers can only arrive after this task ends.
  const { calcId, apiKey, context } = readRequest(host, overrides);
  const template = templateUrl(apiOrigin, calcId);
  // The file first: it is what the first render usually waits for. Shared by the page's
  // widgets and never aborted: another widget may be waiting for it.
  const templateFile = apiKey && template && fetchFile(template, (json) => (isRecord(json) ? json : undefined));
  const answer = apiKey
    ? loadCalculator(apiOrigin, { apiKey, calcId, domain: location.origin, context }, signal)
    : undefined;

  const options = readOptions(host, overrides, pageAnalytics);
  const doc = host.ownerDocument;
  adoptStyles(shadow, options.nonce);
  const funnel =
    answer && options.analytics
      ? createFunnel(host, `${apiOrigin}/v1/widget/events`, { apiKey, domain: location.origin, calcId }, signal)
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

    // The catalogue's texts are English, translated by the language pack; an owner's are
    // given per language and chosen here, shown as they are.
    const say: Say = template
      ? (text: Text) => look.t(textIn(text, 'en'))
      : (text: Text) => textIn(text, look.language);
    /** Renders `definition` with its defaults and the page's values, and wires the visitor's input. */
    const show = (definition: Definition): [FormModel, View] => {
      const shown = mountForm(host, shadow, definition, {
        calculator: options,
        units: options.units,
        values: options.values,
        source: 'embed',
        look,
        say,
        format: createFormatter(options.locale, options.currency, look.t, say),
        signal,
        funnel,
      });
      if (options.theme === 'auto') watchPageTheme(doc, shown[1].root, signal);
      return shown;
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
      if (outcome.results) {
        // Sent with what the load sent (key, calculator, domain, visitor context) and what is shown now.
        const send = (sent: Sent) =>
          submitResult(
            apiOrigin,
            {
              apiKey,
              calcId,
              domain: location.origin,
              context,
              inputs: currentValues(model),
              units: model.system,
              locale: look.language,
              page: location.href,
              sources: valueSources(model),
              ...sent,
            },
            signal,
          );
        const complete = () => computeResult(model) !== null;
        const config = outcome.results;
        void loadResultsChunk(apiOrigin).then((chunk) => {
          if (signal.aborted) return;
          if (!chunk) return console.warn(`[calc] calculator "${options.calcId}": results form unavailable`);
          adoptStyles(shadow, options.nonce, chunk.css);
          view.root.append(chunk.resultsForm(doc, host, look, config, complete, send, signal));
        });
      }
      emit(host, 'calc:ready', { calcId: options.calcId, sources: valueSources(model), values: currentValues(model) });
      funnel?.loaded();
    };

    let shown: [FormModel, View] | undefined;
    // Once the load has answered, the answer decides what is shown.
    let answered = false;
    const fromTemplate = (definition: unknown) => {
      if (signal.aborted || answered || shown || definition === undefined) return;
      try {
        shown = show(definition as Definition);
      } catch {
        // A file this script cannot show: the load answer's definition will be.
      }
    };
    if (templateFile) {
      // In memory (another widget fetched it): rendered in this task, as the pack is.
      fromTemplate(fileInMemory(template as string));
      void templateFile.then(fromTemplate);
    } else shadow.replaceChildren(noteRoot(doc, look, 'loading'));
    void answer.then((outcome) => {
      if (signal.aborted) return;
      answered = true;
      if (!outcome.ok) return fail(outcome.code, outcome.message);
      try {
        ready(shown ?? show(outcome.definition as Definition), outcome);
      } catch (error) {
        // A definition this script cannot show (a malformed answer): never an error in the page.
        fail('bad_response', `No calculator to show: ${error}`);
      }
    });
  };

  const inMemory = packInMemory(apiOrigin, language);
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
