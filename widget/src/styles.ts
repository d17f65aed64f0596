/**
 * The widget's styles, adopted as a constructable stylesheet: CSP `style-src` does not
 * govern those, so no nonce and no inline `<style>` are needed. Hosts restyle through
 * `--calc-*` custom properties (which inherit into the shadow tree) and `::part()`.
 */
const LIGHT =
  '--_bg:var(--calc-color-background,#fff);--_text:var(--calc-color-text,#1f2328);--_muted:var(--calc-color-muted,#555d66);--_border:var(--calc-color-border,#6e7781);--_primary:var(--calc-color-primary,#1d4ed8);--_error:var(--calc-color-error,#b42318);color-scheme:light';
const DARK =
  '--_bg:var(--calc-color-background,#1b1f24);--_text:var(--calc-color-text,#eef1f4);--_muted:var(--calc-color-muted,#b1bac4);--_border:var(--calc-color-border,#8b949e);--_primary:var(--calc-color-primary,#8ab4f8);--_error:var(--calc-color-error,#ff9b8f);color-scheme:dark';

// `all:initial` on the root stops inherited host styles (color, font, line-height…);
// host selectors cannot reach inside the shadow tree. Sizes are in px, not rem, so a
// host's root font size does not rescale the widget.
const CSS = `:host{display:block}
.root{all:initial;display:block;box-sizing:border-box;${LIGHT};font-family:var(--calc-font-family,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);font-size:var(--calc-font-size,16px);line-height:1.45;color:var(--_text);background:var(--_bg);border:1px solid var(--_border);border-radius:var(--calc-radius,8px);padding:var(--calc-spacing,16px);max-width:var(--calc-max-width,480px)}
.root[data-theme=dark]{${DARK}}
@media (prefers-color-scheme:dark){.root[data-theme=auto]{${DARK}}}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
.title{margin:0 0 12px;font-size:1.15em;font-weight:600}
form{display:grid;gap:12px;margin:0}
fieldset{margin:0;padding:0;border:0;display:flex;flex-wrap:wrap;gap:4px 16px;min-inline-size:0}
legend{padding:0;margin-bottom:4px;font-weight:600}
.field{display:grid;gap:4px}
label{font-weight:600}
fieldset label{font-weight:400;display:inline-flex;align-items:center;gap:6px;cursor:pointer}
.control{display:grid;grid-template-columns:minmax(0,1fr) 5.5em;align-items:center;gap:8px}
input,select{font:inherit;color:inherit;background:var(--_bg);border:1px solid var(--_border);border-radius:calc(var(--calc-radius,8px)/2);padding:6px 8px;margin:0;min-width:0}
input,select{width:100%}
input[type=radio]{width:18px;height:18px;padding:0;accent-color:var(--_primary)}
.unit,.help{color:var(--_muted)}
.help,.error{margin:0;font-size:.875em}
.error{color:var(--_error)}
input[aria-invalid=true]{border-color:var(--_error);border-width:2px}
:focus-visible{outline:3px solid var(--_primary);outline-offset:2px}
.results{margin:16px 0 0;padding:12px 0 0;border-top:1px solid var(--_border);display:grid;gap:6px}
.result{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 8px;margin:0}
.result dt{font-weight:400;color:var(--_muted)}
.result dd{margin:0;font-weight:700;font-size:1.25em;font-variant-numeric:tabular-nums}
.band{font-weight:600;color:var(--_primary)}
.note{margin:0;color:var(--_muted);font-size:.875em}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}`;

const sheets = new WeakMap<Document, CSSStyleSheet>();

function supportsAdoptedSheets(root: ShadowRoot): boolean {
  return (
    'adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype
  );
}

/** Styles a shadow root: one shared constructable sheet per document, else a `<style nonce>`. */
export function adoptStyles(root: ShadowRoot, nonce: string | undefined): void {
  const doc = root.ownerDocument;
  if (supportsAdoptedSheets(root)) {
    let sheet = sheets.get(doc);
    if (!sheet) {
      // The sheet must come from the document's own window (it may be an iframe's).
      const Sheet = doc.defaultView?.CSSStyleSheet ?? CSSStyleSheet;
      sheet = new Sheet();
      sheet.replaceSync(CSS);
      sheets.set(doc, sheet);
    }
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return;
  }
  // Old browsers: an inline <style>, which a strict style-src allows only with its nonce.
  const style = doc.createElement('style');
  if (nonce) style.nonce = nonce;
  style.textContent = CSS;
  root.prepend(style);
}
