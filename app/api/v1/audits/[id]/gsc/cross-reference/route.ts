import type { Sendable } from '@/lib/api/client';
import { auditIdParam } from '@/lib/api/params';
import { guarded, json } from '@/lib/api/respond';
import { reconciledAudit } from '@/lib/findings/data';
import { gscCrossReference } from '@/lib/gsc/xref/data';
import type { GscCrossReferenceDto } from '@/lib/gsc/xref/types';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  await reconciledAudit(id);
  return json((await gscCrossReference(id)) satisfies Sendable<GscCrossReferenceDto>);
});
