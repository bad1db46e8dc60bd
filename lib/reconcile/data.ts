// Reads the reconcile step needs: the audit it works on and the sitemap files named in chart data.
import 'server-only';
import { db } from '@/lib/db/client';

export async function reconcileInputs(auditId: string) {
  return db().audit.findUnique({
    where: { id: auditId },
    select: { id: true, options: true, normalization: true, warnings: true, errors: true, timings: true },
  });
}

export async function sitemapFileInfo(auditId: string, ids: number[]) {
  return db().sitemapFile.findMany({
    where: { auditId, id: { in: ids } },
    select: { id: true, url: true, uploadName: true },
  });
}
