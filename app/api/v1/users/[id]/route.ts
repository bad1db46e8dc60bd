import { findUser } from '@/lib/auth/data';
import { deleteUser, updateUser } from '@/lib/auth/mutations';
import { ZUserChange } from '@/lib/auth/schema';
import type { AccountUserDto } from '@/lib/auth/types';
import type { Sendable } from '@/lib/client/api';
import { AppError } from '@/lib/core/errors';
import { idParam, jsonBody } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

async function existing(context: Context) {
  const id = idParam((await context.params).id, 'user');
  if (!(await findUser(id))) throw new AppError('not_found', 'No such user');
  return id;
}

export const PATCH = guarded('admin', async (request: Request, context: Context, actor) => {
  const id = await existing(context);
  const change = ZUserChange.parse(await jsonBody(request));
  if (id === actor.id && (change.disabled || (change.role && change.role !== 'admin'))) {
    throw new AppError('conflict', 'You cannot disable yourself or give up your own admin role');
  }
  return json((await updateUser(id, change)) satisfies Sendable<AccountUserDto>);
});

export const DELETE = guarded('admin', async (_request: Request, context: Context, actor) => {
  const id = await existing(context);
  if (id === actor.id) throw new AppError('conflict', 'You cannot delete yourself');
  await deleteUser(id);
  return new Response(null, { status: 204 });
});
