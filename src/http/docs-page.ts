/** A dependency-free API reader: lists every operation of /openapi.json with its schemas. */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>calc API reference</title>
</head>
<body>
<main id="docs"><h1>calc API reference</h1><p>Loading <a href="/openapi.json">/openapi.json</a>…</p></main>
<script src="/docs/reader.js"></script>
</body>
</html>
`;

export const DOCS_JS = `(() => {
  const el = (tag, props, ...children) => {
    const node = Object.assign(document.createElement(tag), props || {});
    for (const child of children) node.append(child);
    return node;
  };
  const style = new CSSStyleSheet();
  style.replaceSync('body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:1rem 2rem;color:#1b1f24}' +
    'h2{margin-top:2rem;border-bottom:1px solid #ddd}details{border:1px solid #ddd;border-radius:6px;margin:.5rem 0;padding:.4rem .8rem}' +
    'summary{cursor:pointer}code.m{display:inline-block;min-width:4.5em;font-weight:700}pre{background:#f6f8fa;padding:.6rem;overflow:auto;font-size:13px}');
  document.adoptedStyleSheets = [style];
  fetch('/openapi.json').then((r) => r.json()).then((doc) => {
    const main = document.getElementById('docs');
    main.replaceChildren(el('h1', { textContent: doc.info.title + ' ' + doc.info.version }), el('p', { textContent: doc.info.description }),
      el('p', {}, el('a', { href: '/openapi.json', textContent: 'Download openapi.json' })));
    const byTag = {};
    for (const [path, ops] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(ops)) (byTag[op.tags[0]] ||= []).push([method, path, op]);
    for (const [tag, ops] of Object.entries(byTag)) {
      main.append(el('h2', { textContent: tag }));
      for (const [method, path, op] of ops) {
        const body = [];
        if (op.security) body.push(el('p', { textContent: 'Requires Authorization: Bearer <JWT>.' }));
        if (op.requestBody) body.push(el('h4', { textContent: 'Request body' }), el('pre', { textContent: JSON.stringify(op.requestBody.content['application/json'].schema, null, 2) }));
        for (const [status, res] of Object.entries(op.responses)) body.push(el('h4', { textContent: status + ' ' + res.description }), el('pre', { textContent: JSON.stringify(res.content ? res.content['application/json'].schema : {}, null, 2) }));
        main.append(el('details', {}, el('summary', {}, el('code', { className: 'm', textContent: method.toUpperCase() }), ' ', el('code', { textContent: path }), ' — ' + (op.summary || '')), ...body));
      }
    }
  }).catch((e) => { document.getElementById('docs').append(el('p', { textContent: 'Could not load the API description: ' + e })); });
})();
`;
