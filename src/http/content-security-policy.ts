/**
 * The Content-Security-Policy of the pages the service serves from third-party bundles (the API docs' Swagger UI,
 * bull-board): scripts, styles, fonts and requests from this origin only, no inline script, no forms, no framing.
 * Inline styles and data: images and fonts are allowed, since both bundles use them.
 */
export const selfOnlyPolicy = (baseUri: "'self'" | "'none'"): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    `base-uri ${baseUri}`,
  ].join('; ');
