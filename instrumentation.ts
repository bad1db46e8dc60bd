// Runs once when the Next.js server starts: a TRUST_PROXY it cannot read, or a half-configured upload
// bucket, stops the start (rather than failing every sign-in or upload later), and every request gets its
// socket's address stamped (lib/auth/peer.ts).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { parseTrustProxy } = await import('@/lib/auth/proxy-trust');
  const { installPeerStamp } = await import('@/lib/auth/peer');
  const { storageConfig } = await import('@/lib/storage/config');
  parseTrustProxy(process.env.TRUST_PROXY);
  storageConfig();
  installPeerStamp();
}
