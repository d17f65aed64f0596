const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** The languages the demo's switcher offers, each with the currency its amounts are shown in. */
const DEMO_LANGUAGES: { locale: string; name: string; currency: string }[] = [
  { locale: 'en-US', name: 'English', currency: 'USD' },
  { locale: 'de-DE', name: 'Deutsch', currency: 'EUR' },
  { locale: 'fr-FR', name: 'Français', currency: 'EUR' },
  { locale: 'es-ES', name: 'Español', currency: 'EUR' },
  { locale: 'it-IT', name: 'Italiano', currency: 'EUR' },
  { locale: 'nl-NL', name: 'Nederlands', currency: 'EUR' },
  { locale: 'pt-BR', name: 'Português', currency: 'BRL' },
  { locale: 'pl-PL', name: 'Polski', currency: 'PLN' },
];

/** The snippet as text to copy (escaped once, where it is shown). */
function embedSnippet(apiUrl: string, apiKey: string): string {
  return `<script src="${apiUrl}/widget.js" async></script>\n<div data-calc-widget data-calc-id="bmi" data-api-key="${apiKey}"></div>`;
}

function widgetElement(apiKey: string, calcId: string): string {
  return `<div data-calc-widget data-calc-id="${escapeHtml(calcId)}" data-api-key="${escapeHtml(apiKey)}" data-locale="en-US" data-currency="USD" data-theme="light"></div>`;
}

function select(id: string, label: string, options: { value: string; name: string; data?: string }[]): string {
  const items = options
    .map(({ value, name, data }) => `<option value="${escapeHtml(value)}"${data ?? ''}>${escapeHtml(name)}</option>`)
    .join('');
  return `<label>${escapeHtml(label)} <select id="${id}">${items}</select></label>`;
}

/**
 * The demo page's HTML: with a demo account, a gallery of every calculator embedded
 * exactly as a customer embeds them (one script tag, one element each), with a language
 * and theme switcher; without one, how to embed with your own key.
 */
export function demoPage({
  apiUrl,
  apiKey,
  calcIds,
}: {
  apiUrl: string;
  apiKey: string | null;
  calcIds: readonly string[];
}): string {
  const switcher = `<form class="toolbar" aria-label="Preview options">
${select(
  'demo-language',
  'Language',
  DEMO_LANGUAGES.map(({ locale, name, currency }) => ({
    value: locale,
    name,
    data: ` data-currency="${currency}"`,
  })),
)}
${select('demo-theme', 'Theme', [
  { value: 'light', name: 'Light' },
  { value: 'dark', name: 'Dark' },
  { value: 'auto', name: 'Auto (follows your system)' },
])}
</form>`;
  const body = apiKey
    ? `<p>Every calculator below is the customer snippet with this server's demo key: the script is loaded once, every element mounts its own widget. Switch the language or the theme: the widgets follow their changed attributes.</p>
${switcher}
<div class="gallery">
${calcIds.map((calcId) => `<section class="card">\n<h2><code>${escapeHtml(calcId)}</code></h2>\n${widgetElement(apiKey, calcId)}\n</section>`).join('\n')}
</div>
<script src="${escapeHtml(apiUrl)}/widget.js" async></script>
<script src="/demo.js" async></script>`
    : '<p>This server runs without <code>--demo</code>. Create an account (<code>calc signup</code> or <code>calc admin accounts create</code>), register your site with <code>calc domains add</code>, then embed:</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>calc — embeddable calculators</title>
<link rel="stylesheet" href="/demo.css">
</head>
<body>
<main>
<h1>calc</h1>
<p>Embeddable calculators for your pages, served by this server.</p>
${body}
<h2>Embed snippet</h2>
<p>Copy this into your page (one script tag per page, one element per calculator). Options and events: <code>docs/embedding.md</code>.</p>
<pre><code>${escapeHtml(embedSnippet(apiUrl, apiKey ?? 'pk_YOUR_KEY'))}</code></pre>
<p>Site owners: manage domains, keys, webhooks and usage on <a href="/dashboard">the dashboard</a>. API reference: <a href="/docs">/docs</a></p>
</main>
</body>
</html>
`;
}

/**
 * The demo page's own layout, served from 'self' (the page's CSP allows no inline style).
 * The gallery is laid out in columns, so cards of different heights leave no gaps.
 */
export const DEMO_CSS = `body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;background:#f6f7f9;color:#1f2328}
main{max-width:1180px;margin:0 auto;padding:24px}
.toolbar{display:flex;flex-wrap:wrap;gap:12px 24px;align-items:center;margin:16px 0 24px;padding:12px 16px;background:#fff;border:1px solid #d0d7de;border-radius:8px;position:sticky;top:8px;z-index:1}
.toolbar label{font-weight:600}
.toolbar select{font:inherit;margin-left:8px;padding:4px 8px;border:1px solid #6e7781;border-radius:6px;background:#fff;color:inherit}
.gallery{columns:340px auto;column-gap:24px}
.card{break-inside:avoid;margin:0 0 24px}
.card h2{font-size:.875rem;font-weight:600;margin:0 0 8px;color:#555d66}
[data-calc-widget]{min-height:200px}
h2{font-size:1rem;margin:24px 0 8px}
pre{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:12px;overflow:auto}
a{color:#1d4ed8}
`;

/**
 * The switcher: sets each widget's data-locale, data-currency and data-theme; the widget
 * script sees the changed attributes and remounts each widget (served from 'self', as the
 * page's CSP allows no inline script).
 */
export const DEMO_JS = `(() => {
  const language = document.getElementById('demo-language');
  const theme = document.getElementById('demo-theme');
  if (!language || !theme) return;
  const apply = () => {
    const currency = language.selectedOptions[0]?.dataset.currency ?? 'USD';
    for (const element of document.querySelectorAll('[data-calc-widget]')) {
      element.dataset.locale = language.value;
      element.dataset.currency = currency;
      element.dataset.theme = theme.value;
    }
  };
  language.addEventListener('change', apply);
  theme.addEventListener('change', apply);
})();
`;

/**
 * The strict policy customers are told about (docs/embedding.md), with the widget's API
 * origin allowed next to 'self' in case the page is opened at another address.
 */
export function demoPagePolicy(apiUrl: string): string {
  let api = '';
  try {
    api = ` ${new URL(apiUrl).origin}`;
  } catch {
    api = '';
  }
  return `default-src 'none'; script-src 'self'${api}; connect-src 'self'${api}; style-src 'self'${api}; img-src 'self'${api}`;
}
