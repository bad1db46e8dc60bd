import type { Sendable } from '@/lib/client/api';
import { AppError } from '@/lib/core/errors';
import { idParam, jsonBody } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { siteExists } from '@/lib/sites/data';
import { listSchedules } from '@/lib/sites/schedules/data';
import { createSchedule } from '@/lib/sites/schedules/service';
import type { ScheduleDto } from '@/lib/sites/schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const id = idParam((await params).id, 'site');
  if (!(await siteExists(id))) throw new AppError('not_found', 'No such site');
  const items = await listSchedules(id);
  return json({ items } satisfies Sendable<{ items: ScheduleDto[] }>);
});

/** A schedule starts runs of the site by itself, so only admins make one. */
export const POST = guarded('admin', async (request: Request, { params }: Context, actor) => {
  const id = idParam((await params).id, 'site');
  const schedule = await createSchedule(id, await jsonBody(request), actor.name);
  return json(schedule satisfies Sendable<ScheduleDto>, { status: 201 });
});
