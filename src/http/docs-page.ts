/**
 * The API reference page: Redoc (a maintained, offline OpenAPI reader) renders
 * /openapi.json. Its script is served by this server, never a CDN.
 */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>calc API reference</title>
</head>
<body>
<redoc spec-url="/openapi.json" expand-responses="200,201" json-sample-expand-level="3" hide-hostname="false"></redoc>
<noscript>The reference needs JavaScript; the raw description is at <a href="/openapi.json">/openapi.json</a>.</noscript>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
`;

/**
 * Redoc styles itself with inline `<style>` elements and runs its search index in a
 * worker made from a blob: the policy allows exactly that, and nothing from elsewhere.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');
