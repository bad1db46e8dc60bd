import { auditIdParam, jsonBody } from '@/lib/core/params';
import { ZGscCredentialsInput } from '@/lib/gsc/inspection-schema';
import { publicCredentials, removeCredentials, setCredentials } from '@/lib/gsc/inspection-service';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Sets or replaces the audit's service-account key (sealed at rest); answers its property and email only. */
export const PUT = guarded('admin', async (request: Request, { params }: Context, actor) => {
  const id = auditIdParam((await params).id);
  const input = ZGscCredentialsInput.parse(await jsonBody(request));
  return json(await setCredentials(id, input, actor.name));
});

/** The key's property, client email and who set it when; 404 when none is set. Never the key. */
export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  return json(await publicCredentials(auditIdParam((await params).id)));
});

export const DELETE = guarded('admin', async (_request: Request, { params }: Context) => {
  await removeCredentials(auditIdParam((await params).id));
  return new Response(null, { status: 204 });
});
