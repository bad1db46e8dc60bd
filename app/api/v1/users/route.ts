import type { Sendable } from '@/lib/api/client';
import { jsonBody } from '@/lib/api/params';
import { guarded, json } from '@/lib/api/respond';
import { listUsers } from '@/lib/auth/data';
import { createUser } from '@/lib/auth/mutations';
import { ZNewUser } from '@/lib/auth/schema';
import type { AccountUserDto, UserListDto } from '@/lib/auth/types';

export const dynamic = 'force-dynamic';

export const GET = guarded('admin', async () =>
  json({ items: await listUsers() } satisfies Sendable<UserListDto>),
);

export const POST = guarded('admin', async (request: Request) => {
  const user = await createUser(ZNewUser.parse(await jsonBody(request)));
  return json(user satisfies Sendable<AccountUserDto>, { status: 201 });
});
