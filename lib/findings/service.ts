// Request-level rules of the findings endpoints: the audit must exist and be reconciled; who decides.
import { AppError } from '@/lib/api/errors';
import { db } from '@/lib/db/client';

const MAX_REVIEWER = 100;

/** The audit's name, or a 404 when it does not exist; a 409 when it has no findings yet. */
export async function reconciledAudit(auditId: string): Promise<{ name: string }> {
  const audit = await db().audit.findUnique({
    where: { id: auditId },
    select: { name: true, reconciledAt: true, status: true },
  });
  if (!audit) throw new AppError('not_found', 'No such audit');
  if (!audit.reconciledAt) {
    throw new AppError(
      'conflict',
      audit.status === 'queued' || audit.status === 'running'
        ? 'This audit has no findings yet: it is still being ingested or reconciled'
        : 'This audit has no findings: it was not reconciled (a crawl export is needed)',
    );
  }
  return { name: audit.name };
}

/** Who made a decision. Until accounts exist it is the name the reviewer gives (X-Reviewer header). */
export function reviewerFrom(request: Request): string {
  const raw = request.headers.get('x-reviewer')?.trim() ?? '';
  if (raw.length > MAX_REVIEWER) {
    throw new AppError('validation_failed', `X-Reviewer must be at most ${MAX_REVIEWER} characters`);
  }
  return raw || 'anonymous reviewer';
}
