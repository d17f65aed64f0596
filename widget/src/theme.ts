/**
 * The theme a widget shows. `auto` follows the page's own `color-scheme` (the CSS property
 * on <html>, else `<meta name="color-scheme">`) when the page declares only one of light
 * and dark; a page that declares both or neither leaves it to the visitor's system
 * (`prefers-color-scheme`, in the stylesheet).
 */
import type { Theme } from './options.ts';

function declared(scheme: string | null | undefined): Theme | undefined {
  const light = /\blight\b/.test(scheme ?? '');
  const dark = /\bdark\b/.test(scheme ?? '');
  return light === dark ? undefined : dark ? 'dark' : 'light';
}

export function pageTheme(theme: Theme, doc: Document): Theme {
  if (theme !== 'auto') return theme;
  return (
    declared(doc.defaultView?.getComputedStyle(doc.documentElement).colorScheme) ??
    declared(doc.querySelector('meta[name="color-scheme"]')?.getAttribute('content')) ??
    'auto'
  );
}
