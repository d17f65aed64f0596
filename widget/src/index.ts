/**
 * The embed script's entry: registers `window.CalcWidget` once and mounts every
 * `[data-calc-widget]` element. Included twice, the second copy only scans again.
 */
import { createLoader, type CalcWidgetApi } from './loader';

declare global {
  interface Window {
    CalcWidget?: CalcWidgetApi;
  }
}

/** The API lives where this script was loaded from. */
function apiOrigin(): string {
  const script = document.currentScript;
  const src = script instanceof HTMLScriptElement && script.src ? script.src : undefined;
  try {
    return new URL(src ?? location.href).origin;
  } catch {
    return location.origin;
  }
}

function start(): void {
  // Imported where there is no DOM (server rendering): do nothing.
  if (typeof window === 'undefined' || typeof document === 'undefined') return;
  window.CalcWidget ??= createLoader(apiOrigin());
  const api = window.CalcWidget;
  api.scan();
  // An async script can run before the parser reaches the elements below it.
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', () => api.scan(), { once: true });
}

start();
