const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** The demo page's HTML. Without a demo account it explains how to embed with your own key. */
export function demoPage({ apiUrl, apiKey }: { apiUrl: string; apiKey: string | null }): string {
  const key = apiKey ?? 'pk_YOUR_KEY';
  const snippet = `<script src="${apiUrl}/widget.js" async></script>\n<div data-calc-widget data-calc-id="bmi" data-api-key="${key}"></div>`;
  const body = apiKey
    ? `<section data-demo-check data-api-key="${escapeHtml(apiKey)}" data-calc-id="bmi"><p>Checking this page against the API…</p></section>`
    : '<p>This server runs without <code>--demo</code>. Create an account (<code>calc signup</code> or <code>calc admin accounts create</code>), register your site with <code>calc domains add</code>, then embed:</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>calc — embeddable calculators</title>
</head>
<body>
<main>
<h1>calc</h1>
<p>Embeddable calculators for your pages, served by this server.</p>
${body}
<h2>Embed snippet</h2>
<pre><code>${escapeHtml(snippet)}</code></pre>
<p>API reference: <a href="/docs">/docs</a></p>
</main>
<script src="/demo.js"></script>
</body>
</html>
`;
}

/** Until the widget is served, the demo page shows the verify and load answers. */
export const DEMO_JS = `(() => {
  for (const el of document.querySelectorAll('[data-demo-check]')) {
    const body = JSON.stringify({ apiKey: el.dataset.apiKey, domain: location.origin, calcId: el.dataset.calcId });
    const show = (title, value) => { const h = document.createElement('h3'); h.textContent = title; const pre = document.createElement('pre'); pre.textContent = JSON.stringify(value, null, 2); el.append(h, pre); };
    el.replaceChildren();
    Promise.all(['verify', 'load'].map((route) => fetch('/v1/widget/' + route, { method: 'POST', headers: { 'content-type': 'text/plain' }, body }).then(async (r) => [route, r.status, await r.json()])))
      .then((answers) => { for (const [route, status, json] of answers) show('POST /v1/widget/' + route + ' → ' + status, json); })
      .catch((e) => show('error', String(e)));
  }
})();
`;
