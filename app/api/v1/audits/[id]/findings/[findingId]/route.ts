import type { Sendable } from '@/lib/client/api';
import { AppError } from '@/lib/core/errors';
import { auditIdParam, findingIdParam } from '@/lib/core/params';
import type { FindingDetailDto } from '@/lib/findings/schema';
import { getFinding, reconciledAudit } from '@/lib/review/data';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; findingId: string }> };

export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const { id: rawId, findingId } = await params;
  const id = auditIdParam(rawId);
  const number = findingIdParam(findingId);
  await reconciledAudit(id);
  const finding = await getFinding(id, number);
  if (!finding) throw new AppError('not_found', 'No such finding');
  return json(finding satisfies Sendable<FindingDetailDto>);
});
