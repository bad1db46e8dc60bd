import type { Sendable } from '@/lib/client/api';
import { auditIdParam } from '@/lib/core/params';
import { gscCrossReference } from '@/lib/gsc/xref/data';
import type { GscCrossReferenceDto } from '@/lib/gsc/xref/types';
import { reconciledAudit } from '@/lib/review/data';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  await reconciledAudit(id);
  return json((await gscCrossReference(id)) satisfies Sendable<GscCrossReferenceDto>);
});
