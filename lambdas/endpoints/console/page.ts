import type { ConsoleBuild } from './build.js';

/**
 * What the console's page allows: its own scripts and stylesheet, calls to this
 * origin only (the API beside it), pictures it draws itself (charts, downloads
 * as blob: links). No inline script, no other origin, no framing. Inline styles
 * stay allowed: the component library sets element styles and its theme's CSS
 * variables at run time.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The page: an empty root and the built files, linked relatively (console/x.js
 * from /console, and on AWS /<stage>/console), so it works under any stage.
 */
export function renderConsolePage(build: Pick<ConsoleBuild, 'script' | 'stylesheet'>, version: string): string {
  const safe = (name: string) => name.replace(/[^\w.-]/g, '');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="library-version" content="${safe(version)}">
<title>Library console</title>
<link rel="icon" href="data:,">
${build.stylesheet ? `<link rel="stylesheet" href="console/${safe(build.stylesheet)}">` : ''}
<script type="module" src="console/${safe(build.script)}"></script>
</head>
<body>
<noscript>The Library console needs JavaScript. The API itself is described at <a href="docs">docs</a>.</noscript>
<div id="console"></div>
</body>
</html>
`;
}
