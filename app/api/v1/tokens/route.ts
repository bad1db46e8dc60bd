import { listTokens } from '@/lib/auth/data';
import { createApiToken } from '@/lib/auth/mutations';
import { ZNewToken } from '@/lib/auth/schema';
import type { CreatedTokenDto, TokenListDto } from '@/lib/auth/types';
import type { Sendable } from '@/lib/client/api';
import { jsonBody } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

/** The caller's own API tokens (never the secrets). */
export const GET = guarded('viewer', async (_request: Request, _context: unknown, actor) =>
  json({ items: await listTokens(actor.id) } satisfies Sendable<TokenListDto>),
);

/** A new token for the caller; the secret is in this response only. */
export const POST = guarded('viewer', async (request: Request, _context: unknown, actor) => {
  const { name } = ZNewToken.parse(await jsonBody(request));
  return json((await createApiToken(actor.id, name)) satisfies Sendable<CreatedTokenDto>, { status: 201 });
});
