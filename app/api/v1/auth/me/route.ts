import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

export const GET = guarded('viewer', async (_request: Request, _context: unknown, actor) =>
  json({ user: { id: actor.id, email: actor.email, name: actor.name, role: actor.role }, via: actor.via }),
);
