/**
 * The widget's styles, adopted as a constructable stylesheet: CSP `style-src` does not
 * govern those, so no nonce and no inline `<style>` are needed. Hosts restyle through
 * `--calc-*` custom properties (which inherit into the shadow tree) and `::part()`.
 */
// Each theme's palette. Text colours keep 4.5:1 on their backgrounds (band labels on their
// tints included); input borders keep 3:1. Hosts override through the --calc-* properties.
const LIGHT =
  '--_bg:var(--calc-color-background,#fff);--_t:var(--calc-color-text,#1f2328);--_m:var(--calc-color-muted,#555d66);--_b:var(--calc-color-border,#6e7781);--_l:#d8dee4;--_p:#f3f5f7;--_a:var(--calc-color-primary,#1d4ed8);--_e:var(--calc-color-error,#b42318);--_g:#0f5c2a;--_gb:#d6f5df;--_c:#6e4000;--_cb:#fdefc3;--_r:#9f1020;--_rb:#fde2e4;color-scheme:light';
const DARK =
  '--_bg:var(--calc-color-background,#1b1f24);--_t:var(--calc-color-text,#eef1f4);--_m:var(--calc-color-muted,#b1bac4);--_b:var(--calc-color-border,#8b949e);--_l:#3a424b;--_p:#242a31;--_a:var(--calc-color-primary,#8ab4f8);--_e:var(--calc-color-error,#ff9b8f);--_g:#8fe0a6;--_gb:#143d24;--_c:#f3cd66;--_cb:#3f3005;--_r:#ffaaa3;--_rb:#4d161b;color-scheme:dark';

// `all:initial` on the root stops inherited host styles (color, font, line-height…);
// host selectors cannot reach inside the shadow tree. Sizes are in px and em, not rem, so
// a host's root font size does not rescale the widget. Spacing steps: 4, 8, 12, 16 px.
// In an object so that the minifier keeps one copy instead of inlining it at each use.
const STYLE = {
  css: `:host{display:block}
.root{all:initial;display:block;box-sizing:border-box;${LIGHT};font-family:var(--calc-font-family,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);font-size:var(--calc-font-size,16px);line-height:1.45;color:var(--_t);background:var(--_bg);border:1px solid var(--_l);border-radius:var(--calc-radius,8px);padding:var(--calc-spacing,16px);max-width:var(--calc-max-width,480px)}
.root[data-theme=dark]{${DARK}}
@media (prefers-color-scheme:dark){.root[data-theme=auto]{${DARK}}}
*{box-sizing:border-box}
[hidden]{display:none!important}
.title{margin:0 0 16px;font-size:1.2em;font-weight:650;line-height:1.3}
form{display:grid;gap:12px;margin:0}
fieldset{margin:0;padding:0;border:0;display:flex;flex-wrap:wrap;gap:4px 16px;min-inline-size:0}
legend{padding:0;margin-bottom:4px}
.field{display:grid;gap:4px}
label,legend{font-weight:600;font-size:.875em}
fieldset label{font-weight:400;font-size:1em;display:inline-flex;align-items:center;gap:8px;cursor:pointer}
.control{display:grid;grid-template-columns:minmax(0,1fr) 5.5em;align-items:center;gap:8px}
input,select{font:inherit;color:inherit;background:var(--_bg);border:1px solid var(--_b);border-radius:calc(var(--calc-radius,8px)/2);padding:8px;margin:0;min-width:0;width:100%}
input[type=radio],input[type=checkbox]{width:18px;height:18px;padding:0;flex:none;accent-color:var(--_a)}
.check{display:flex;align-items:center;gap:8px}
.unit,.help,dt{color:var(--_m)}
.help,.error{margin:0;font-size:.875em}
.error{color:var(--_e)}
input[aria-invalid=true]{border-color:var(--_e);border-width:2px}
:focus-visible{outline:3px solid var(--_a);outline-offset:2px}
.results{margin:16px 0 0;padding:12px 16px;background:var(--_p);border-radius:var(--calc-radius,8px);display:grid;gap:8px}
.result{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:4px 12px}
dd{margin:0;display:flex;flex-wrap:wrap;align-items:center;gap:4px 12px;font-weight:650;font-variant-numeric:tabular-nums}
[part~=result-main]{display:grid;justify-content:stretch}
[part~=result-main]:not(:only-child){padding-bottom:12px;border-bottom:1px solid var(--_l)}
[part~=result-main] .amount{font-size:1.75em;line-height:1.2}
[part~=result-main] .unit{font-size:.5em;font-weight:400}
.band{border-radius:99px;padding:2px 12px;font-size:.875em;font-weight:600;background:var(--_l)}
.band:empty{display:none}
[data-tone=good]{color:var(--calc-color-good,var(--_g));background:var(--_gb)}
[data-tone=caution]{color:var(--calc-color-caution,var(--_c));background:var(--_cb)}
[data-tone=risk]{color:var(--calc-color-risk,var(--_r));background:var(--_rb)}
.note{margin:0;color:var(--_m);font-size:.875em}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}`,
};

// Per document, one sheet per text: the widget's own, and the results chunk's.
const sheets = new WeakMap<Document, Map<string, CSSStyleSheet>>();

function supportsAdoptedSheets(root: ShadowRoot): boolean {
  return (
    'adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype
  );
}

/**
 * Styles a shadow root with `css` (the widget's own unless given): one shared constructable
 * sheet per document and text, else a `<style nonce>`.
 */
export function adoptStyles(root: ShadowRoot, nonce: string | undefined, css = STYLE.css): void {
  const doc = root.ownerDocument;
  if (supportsAdoptedSheets(root)) {
    const byText = sheets.get(doc) ?? new Map<string, CSSStyleSheet>();
    sheets.set(doc, byText);
    let sheet = byText.get(css);
    if (!sheet) {
      // The sheet must come from the document's own window (it may be an iframe's).
      const Sheet = doc.defaultView?.CSSStyleSheet ?? CSSStyleSheet;
      sheet = new Sheet();
      sheet.replaceSync(css);
      byText.set(css, sheet);
    }
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return;
  }
  // Old browsers: an inline <style>, which a strict style-src allows only with its nonce.
  const style = doc.createElement('style');
  if (nonce) style.nonce = nonce;
  style.textContent = css;
  root.prepend(style);
}
