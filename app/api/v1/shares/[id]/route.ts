import { findShare } from '@/lib/auth/data';
import { revokeShare } from '@/lib/auth/mutations';
import { AppError } from '@/lib/core/errors';
import { idParam } from '@/lib/core/params';
import { guarded } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Revokes a share link: it stops opening at once, and stays listed as revoked by the caller. */
export const DELETE = guarded('reviewer', async (_request: Request, context: Context, actor) => {
  const id = idParam((await context.params).id, 'share');
  if (!(await findShare(id))) throw new AppError('not_found', 'No such share');
  await revokeShare(id, actor.id);
  return new Response(null, { status: 204 });
});
