import { auditIdParam } from '@/lib/core/params';
import { findingsByFile, reconciledAudit } from '@/lib/review/data';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  await reconciledAudit(id);
  return json({ items: await findingsByFile(id) });
});
