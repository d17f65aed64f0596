const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** The calculators the demo shows, each with the options a customer might set. */
const DEMO_WIDGETS: { calcId: string; attributes: string }[] = [
  { calcId: 'bmi', attributes: '' },
  { calcId: 'tdee', attributes: ' data-theme="auto"' },
  { calcId: 'loan', attributes: ' data-currency="EUR" data-locale="de-DE"' },
  { calcId: 'tip', attributes: ' data-currency="USD"' },
  { calcId: 'fuel-cost', attributes: ' data-units="imperial" data-currency="USD"' },
];

/** The snippet as text to copy (escaped once, where it is shown). */
function embedSnippet(apiUrl: string, apiKey: string): string {
  return `<script src="${apiUrl}/widget.js" async></script>\n<div data-calc-widget data-calc-id="bmi" data-api-key="${apiKey}"></div>`;
}

function widgetElement(apiKey: string, calcId: string, attributes: string): string {
  return `<div data-calc-widget data-calc-id="${escapeHtml(calcId)}" data-api-key="${escapeHtml(apiKey)}"${attributes}></div>`;
}

/**
 * The demo page's HTML: with a demo account, several calculators embedded exactly as a
 * customer embeds them (one script tag, one element each); without one, how to embed
 * with your own key.
 */
export function demoPage({ apiUrl, apiKey }: { apiUrl: string; apiKey: string | null }): string {
  const body = apiKey
    ? `<p>Each calculator below is the customer snippet with this server's demo key: the script is loaded once, every element mounts its own widget.</p>
<div class="widgets">
${DEMO_WIDGETS.map(({ calcId, attributes }) => `<section>\n<h2><code>${escapeHtml(calcId)}</code></h2>\n${widgetElement(apiKey, calcId, attributes)}\n</section>`).join('\n')}
</div>
<script src="${escapeHtml(apiUrl)}/widget.js" async></script>`
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

/** The demo page's own layout, served from 'self' (the page's CSP allows no inline style). */
export const DEMO_CSS = `body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;background:#f6f7f9;color:#1f2328}
main{max-width:1120px;margin:0 auto;padding:24px}
.widgets{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:24px;align-items:start}
h2{font-size:1rem;margin:0 0 8px}
pre{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:12px;overflow:auto}
a{color:#1d4ed8}
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
