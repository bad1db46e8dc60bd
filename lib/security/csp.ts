// The Content-Security-Policy of every page: scripts only with this response's nonce (Next.js puts it on
// its own scripts, reading it from the request's policy header that proxy.ts sets), nothing from other
// origins, no framing. Styles stay 'unsafe-inline': charts and layout use style attributes, which nonces
// cannot cover. The dev server also needs eval for fast refresh.
export function pagePolicy(nonce: string, development = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** For responses that are never rendered as pages (the JSON API, downloads). */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";
