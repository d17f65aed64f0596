/**
 * The embed script's entry: registers `window.CalcWidget` once, runs the calls queued in
 * `window.calc` before the script arrived, and mounts every `[data-calc-widget]` element.
 * Included twice, the second copy only scans again.
 */
import { createLoader, type CalcWidgetApi } from './loader.ts';

/** `calc('mount', element, options)`, `calc('destroy', element)`, `calc('scan', root)`. */
type CalcCommand = ((command: string, ...args: unknown[]) => void) & { q?: ArrayLike<unknown>[] };

declare global {
  interface Window {
    CalcWidget?: CalcWidgetApi;
    calc?: CalcCommand | ArrayLike<unknown>[];
  }
}

/** The API lives where this script was loaded from. */
function apiOrigin(script: HTMLOrSVGScriptElement | null): string {
  const src = script instanceof HTMLScriptElement && script.src ? script.src : undefined;
  try {
    return new URL(src ?? location.href).origin;
  } catch {
    return location.origin;
  }
}

function commands(api: CalcWidgetApi): CalcCommand {
  return (command, ...args) => {
    if (command === 'mount' || command === 'destroy' || command === 'scan')
      (api[command] as (...values: unknown[]) => void)(...args);
    else console.warn(`[calc] unknown command "${command}": use mount, destroy or scan`);
  };
}

function start(): void {
  // Imported where there is no DOM (server rendering): do nothing.
  if (typeof window === 'undefined' || typeof document === 'undefined') return;
  if (!window.CalcWidget) {
    const script = document.currentScript;
    // `data-analytics="off"` on the script tag: no element of the page reports its funnel.
    const api = createLoader(apiOrigin(script), document, script?.dataset.analytics !== 'off');
    window.CalcWidget = api;
    // The snippet's stub (`window.calc = window.calc || function () { (calc.q = calc.q || []).push(arguments) }`)
    // or a plain array of calls: replay them in order, then answer calls at once.
    const queued = window.calc;
    const run = commands(api);
    window.calc = run;
    const calls = Array.isArray(queued) ? queued : typeof queued === 'function' ? (queued.q ?? []) : [];
    for (const call of calls) {
      const [command, ...args] = Array.from(call);
      if (typeof command === 'string') run(command, ...args);
    }
  }
  const api = window.CalcWidget;
  api.scan();
  // An async script can run before the parser reaches the elements below it.
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', () => api.scan(), { once: true });
}

start();
