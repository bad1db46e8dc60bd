import { cancelAudit } from '@/lib/audit-runs/service';
import { getAudit } from '@/lib/audits/data';
import { AppError } from '@/lib/core/errors';
import { auditIdParam } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Stops a queued or running audit (its worker stops within one heartbeat); answers with the audit. */
export const POST = guarded('reviewer', async (_request: Request, { params }: Context, actor) => {
  const id = auditIdParam((await params).id);
  await cancelAudit(id, actor.name);
  const audit = await getAudit(id);
  if (!audit) throw new AppError('not_found', 'No such audit');
  return json(audit);
});
