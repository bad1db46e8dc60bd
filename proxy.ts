// Runs before every page: a fresh nonce per request for the Content-Security-Policy (lib/security/csp.ts),
// and the path asked for (lib/auth/next-path.ts).
// Next.js reads the policy from the request headers set here and puts the nonce on its scripts.
import { type NextRequest, NextResponse } from 'next/server';
import { REQUEST_PATH_HEADER } from '@/lib/auth/next-path';
import { pagePolicy } from '@/lib/security/csp';

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const policy = pagePolicy(nonce, process.env.NODE_ENV === 'development');
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', policy);
  // Where the visitor was going, for the layout's redirect to /login?next= (always ours, never the client's).
  headers.set(REQUEST_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', policy);
  return response;
}

export const config = {
  // Pages only: the API, build assets and public files get their headers from next.config.ts.
  matcher: [
    {
      source: '/((?!api/|_next/static|_next/image|favicon\\.svg|samples/).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
