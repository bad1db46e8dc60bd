import type { Sendable } from '@/lib/api/client';
import { auditIdParam } from '@/lib/api/params';
import { guarded, json } from '@/lib/api/respond';
import { getAudit } from '@/lib/audits/data';
import { deleteAudit } from '@/lib/audits/mutations';
import type { AuditDto } from '@/lib/audits/schema';
import { AppError } from '@/lib/errors';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const audit = await getAudit(auditIdParam((await params).id));
  if (!audit) throw new AppError('not_found', 'No such audit');
  return json(audit satisfies Sendable<AuditDto>);
});

export const DELETE = guarded('admin', async (_request: Request, { params }: Context) => {
  const deleted = await deleteAudit(auditIdParam((await params).id));
  if (!deleted) throw new AppError('not_found', 'No such audit');
  return new Response(null, { status: 204 });
});
