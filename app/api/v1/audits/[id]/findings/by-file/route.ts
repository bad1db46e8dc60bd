import { auditIdParam } from '@/lib/api/params';
import { json, route } from '@/lib/api/respond';
import { findingsByFile } from '@/lib/findings/data';
import { reconciledAudit } from '@/lib/findings/service';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (_request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  await reconciledAudit(id);
  return json({ items: (await findingsByFile(id)) ?? [] });
});
