import { listUsers } from '@/lib/auth/data';
import { createUser } from '@/lib/auth/mutations';
import { ZNewUser } from '@/lib/auth/schema';
import type { AccountUserDto, UserListDto } from '@/lib/auth/types';
import type { Sendable } from '@/lib/client/api';
import { jsonBody } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

export const GET = guarded('admin', async () =>
  json({ items: await listUsers() } satisfies Sendable<UserListDto>),
);

export const POST = guarded('admin', async (request: Request) => {
  const user = await createUser(ZNewUser.parse(await jsonBody(request)));
  return json(user satisfies Sendable<AccountUserDto>, { status: 201 });
});
