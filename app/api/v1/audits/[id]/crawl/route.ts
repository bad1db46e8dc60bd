import { addCrawlFromRequest } from '@/lib/audit-runs/add-crawl';
import { getAudit } from '@/lib/audits/data';
import { AppError } from '@/lib/core/errors';
import { auditIdParam } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Adds a crawl export to a settled audit that has none (multipart `crawl` file or `crawlUrl`, with
 * `options`; or JSON `{ crawlUrl, options }`): 202 with the audit, queued again; the worker reads the crawl
 * and reconciles it with the sitemap entries already read. 409 while it runs or when it has a crawl. */
export const POST = guarded('reviewer', async (request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  await addCrawlFromRequest(request, id);
  const audit = await getAudit(id);
  if (!audit) throw new AppError('not_found', 'No such audit');
  return json(audit, { status: 202 });
});
