/**
 * The builder's styles, adopted by the document when the builder's chunk loads, so the
 * first load of the dashboard does not carry them (a constructed stylesheet: the page's
 * policy allows it, as it allows the widget's). They use the colours of styles.css.
 */
// The form beside its problems and live preview (one column below 60rem); a formula's
// problem marks its character (.caret) beneath the field.
const CSS = `
.builder {display: grid;grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);gap: 1rem;align-items: start;}
.builder-side {position: sticky;top: 0.5rem;max-height: calc(100vh - 1rem);overflow-y: auto;}
.toolbar .status-line {display: flex;flex-wrap: wrap;gap: 0.25rem 0.75rem;margin: 0;}
.unsaved {color: var(--warning-text);background: var(--warning-bg);padding: 0 0.4rem;border-radius: 4px;}
.items {list-style: none;padding: 0;margin: 0.5rem 0;display: grid;gap: 0.75rem;}
fieldset.item, fieldset.sublist {margin: 0;min-width: 0;}
fieldset.item > legend, fieldset.sublist > legend {font-weight: 700;padding: 0 0.25rem;}
.row {display: grid;grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr));gap: 0 0.75rem;align-items: start;}
.row.key-formula {grid-template-columns: minmax(7rem, 1fr) minmax(0, 3fr);}
.builder .control > label {margin: 0.4rem 0 0.15rem;}
.per-system {display: contents;}
.control {min-width: 0;}
input.code, textarea.code, .caret {font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;}
textarea {width: 100%;font: inherit;color: inherit;padding: 0.45rem 0.6rem;border: 1px solid var(--muted);border-radius: 6px;background: var(--surface);}
input[aria-invalid="true"], select[aria-invalid="true"] {border: 2px solid var(--danger);}
.field-problems {margin: 0.25rem 0 0;padding: 0;list-style: none;color: var(--danger);font-size: 0.9rem;}
.field-problems li + li {margin-top: 0.25rem;}
.caret {display: block;margin-top: 0.15rem;white-space: pre-wrap;overflow-wrap: anywhere;color: var(--text);}
.caret mark {background: var(--warning-bg);color: var(--warning-text);text-decoration: underline wavy var(--danger);text-underline-offset: 0.25em;}
.translations summary {font-size: 0.9rem;color: var(--muted);}
.text-field .translation > label {font-weight: 400;}
button.link {border: 0;background: none;padding: 0;min-height: 0;color: var(--accent);text-decoration: underline;}
.item-actions {display: flex;flex-wrap: wrap;gap: 0.4rem;margin-top: 0.75rem;}
.problem-list {padding-left: 1.1rem;margin: 0.5rem 0 0;}
.problem-list li + li {margin-top: 0.35rem;}
.widget-preview {margin-top: 0.75rem;}
@media (max-width: 60rem) {.builder {grid-template-columns: 1fr;} .builder-side {position: static;max-height: none;}}
`;

let adopted = false;

export function adoptBuilderStyles(): void {
  if (adopted) return;
  adopted = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
