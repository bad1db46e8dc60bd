// Runs once when the Next.js server starts: a TRUST_PROXY it cannot read stops the start (rather than
// failing every sign-in later), and every request gets its socket's address stamped (lib/auth/peer.ts).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { parseTrustProxy } = await import('@/lib/auth/proxy-trust');
  const { installPeerStamp } = await import('@/lib/auth/peer');
  parseTrustProxy(process.env.TRUST_PROXY);
  installPeerStamp();
}
