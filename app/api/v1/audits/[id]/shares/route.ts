import { auditExists } from '@/lib/audits/data';
import { listShares } from '@/lib/auth/data';
import { createShare } from '@/lib/auth/mutations';
import { publicOrigin } from '@/lib/auth/request';
import { ZNewShare } from '@/lib/auth/schema';
import { orderShares, shareStatus } from '@/lib/auth/share-status';
import type { CreatedShareDto, ShareListDto } from '@/lib/auth/types';
import type { Sendable } from '@/lib/client/api';
import { AppError } from '@/lib/core/errors';
import { auditIdParam, jsonBody } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

async function audit(context: Context): Promise<string> {
  const id = auditIdParam((await context.params).id);
  if (!(await auditExists(id))) throw new AppError('not_found', 'No such audit');
  return id;
}

/** Every link of the audit, live, expired and revoked, the live ones first (lib/auth/share-status.ts). */
export const GET = guarded('reviewer', async (_request: Request, context: Context) => {
  const now = new Date();
  const items = orderShares(await listShares(await audit(context)), now).map(
    ({ creator, revoker, ...share }) => ({
      ...share,
      status: shareStatus(share, now),
      createdBy: creator.name,
      revokedBy: revoker?.name ?? null,
    }),
  );
  return json({ items } satisfies Sendable<ShareListDto>);
});

/** A read-only link to this audit's report. The link (its token) is in this response only. */
export const POST = guarded('reviewer', async (request: Request, context: Context, actor) => {
  const auditId = await audit(context);
  const input = ZNewShare.parse(await jsonBody(request));
  const share = await createShare(auditId, actor.id, input.expiresAt ? new Date(input.expiresAt) : null);
  const url = `${publicOrigin(request)}/r/${share.token}`;
  return json({ id: share.id, url, expiresAt: share.expiresAt } satisfies Sendable<CreatedShareDto>, {
    status: 201,
  });
});
