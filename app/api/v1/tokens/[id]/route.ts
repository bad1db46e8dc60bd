import { idParam } from '@/lib/api/params';
import { guarded } from '@/lib/api/respond';
import { revokeApiToken } from '@/lib/auth/mutations';
import { AppError } from '@/lib/errors';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Revokes one of the caller's tokens (someone else's token is "not found"). */
export const DELETE = guarded('viewer', async (_request: Request, context: Context, actor) => {
  const id = idParam((await context.params).id, 'token');
  if (!(await revokeApiToken(actor.id, id))) throw new AppError('not_found', 'No such token');
  return new Response(null, { status: 204 });
});
