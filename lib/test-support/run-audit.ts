// Runs an audit's steps in the test process, as a worker would (claim, handler, state change), and
// builds reconciled audits from sitemap and crawl texts.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { auditRun } from '@/lib/audit-runs/run';
import { insertAudit } from '@/lib/audits/mutations';
import type { TAuditOptions } from '@/lib/audits/schema';
import type { AuditStep } from '@/lib/runs/phases';
import { runStep } from '@/lib/runs/runner';

export function runAuditStep(step: AuditStep, auditId: string, attempt = 1): Promise<void> {
  return runStep(auditRun, step, { runId: auditId, attempt });
}

/** A urlset of the given locations. */
export function urlsetXml(locs: string[]): string {
  return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
}

/**
 * Creates an audit whose uploads are the given sitemap files (upload name → XML, in order) and JSONL
 * crawl lines, and runs its ingest and reconcile steps and its site's history. Returns the audit id.
 */
export async function reconciledAuditOf(
  name: string,
  input: { sitemaps: Record<string, string | Uint8Array>; crawl: string[] },
  options: Partial<TAuditOptions> = {},
): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'audit-'));
  const sources = Object.entries(input.sitemaps).map(([fileName, xml], i) => {
    const storedPath = path.join(dir, `sitemap-${i}.xml`);
    writeFileSync(storedPath, xml);
    return { role: 'sitemap' as const, kind: 'upload' as const, fileName, storedPath };
  });
  const crawlPath = path.join(dir, 'crawl.jsonl');
  writeFileSync(crawlPath, input.crawl.join('\n'));
  const id = randomUUID();
  await insertAudit(id, name, { normalization: 'exact', ...options }, [
    ...sources,
    { role: 'crawl', kind: 'upload', fileName: 'c.jsonl', storedPath: crawlPath },
  ]);
  await runAuditStep('ingest', id);
  await runAuditStep('reconcile', id);
  // Its site's history (the follow-up right after the outcome); the review indexes are left to tests that want them.
  await runAuditStep('site_history', id);
  return id;
}
