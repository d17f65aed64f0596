const escapeAttribute = (value: string) => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The one HTML page of the dashboard. No inline script or style (the policy forbids
 * both); what the app must know from the server rides on data attributes.
 */
export function dashboardPage(input: { scripts: string[]; styles: string[]; signupEnabled: boolean }): string {
  const styles = input.styles.map((href) => `<link rel="stylesheet" href="${escapeAttribute(href)}">`).join('');
  const scripts = input.scripts.map((src) => `<script type="module" src="${escapeAttribute(src)}"></script>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>calc dashboard</title>
<link rel="icon" href="data:,">
${styles}${scripts}
</head>
<body>
<div id="app" data-signup="${input.signupEnabled ? 'on' : 'off'}"></div>
<noscript>The calc dashboard needs JavaScript. The <code>calc</code> command line does everything it does.</noscript>
</body>
</html>
`;
}
