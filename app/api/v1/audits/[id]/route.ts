import { getAudit } from '@/lib/audits/data';
import { deleteAudit, updateAuditSettings } from '@/lib/audits/mutations';
import { type AuditDto, ZAuditPatch } from '@/lib/audits/schema';
import type { Sendable } from '@/lib/client/api';
import { AppError } from '@/lib/core/errors';
import { auditIdParam, jsonBody } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const audit = await getAudit(auditIdParam((await params).id));
  if (!audit) throw new AppError('not_found', 'No such audit');
  return json(audit satisfies Sendable<AuditDto>);
});

/** Changes the audit's settings (admins: a setting changes what reviewers may approve). Answers the audit. */
export const PATCH = guarded('admin', async (request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  const { settings } = ZAuditPatch.parse(await jsonBody(request));
  if (!(await updateAuditSettings(id, settings))) throw new AppError('not_found', 'No such audit');
  const audit = await getAudit(id);
  if (!audit) throw new AppError('not_found', 'No such audit');
  return json(audit satisfies Sendable<AuditDto>);
});

export const DELETE = guarded('admin', async (_request: Request, { params }: Context) => {
  const deleted = await deleteAudit(auditIdParam((await params).id));
  if (!deleted) throw new AppError('not_found', 'No such audit');
  return new Response(null, { status: 204 });
});
