import { changeOwnPassword } from '@/lib/auth/service';
import { guarded } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

/** The caller's own password: `{ current, password }` → 204; other sessions are signed out. */
export const POST = guarded('viewer', async (request: Request, _context: unknown, actor) => {
  await changeOwnPassword(request, actor);
  return new Response(null, { status: 204 });
});
