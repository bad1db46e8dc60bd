import { revokeApiToken } from '@/lib/auth/mutations';
import { AppError } from '@/lib/core/errors';
import { idParam } from '@/lib/core/params';
import { guarded } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Revokes one of the caller's tokens (someone else's token is "not found"). */
export const DELETE = guarded('viewer', async (_request: Request, context: Context, actor) => {
  const id = idParam((await context.params).id, 'token');
  if (!(await revokeApiToken(actor.id, id))) throw new AppError('not_found', 'No such token');
  return new Response(null, { status: 204 });
});
