import type { Sendable } from '@/lib/client/api';
import { AppError } from '@/lib/core/errors';
import { idParam, jsonBody } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { deleteSchedule } from '@/lib/sites/schedules/mutations';
import { patchSchedule, serialIdParam } from '@/lib/sites/schedules/service';
import type { ScheduleDto } from '@/lib/sites/schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; scheduleId: string }> };

async function ids(context: Context): Promise<[string, number]> {
  const { id, scheduleId } = await context.params;
  return [idParam(id, 'site'), serialIdParam(scheduleId, 'schedule')];
}

/** Pauses or resumes a schedule (`{ enabled }`); resumed, it is next due at its next time from now. */
export const PATCH = guarded('admin', async (request: Request, context: Context) => {
  const [siteId, scheduleId] = await ids(context);
  const schedule = await patchSchedule(siteId, scheduleId, await jsonBody(request));
  return json(schedule satisfies Sendable<ScheduleDto>);
});

/** Runs it started stay; they no longer name it. */
export const DELETE = guarded('admin', async (_request: Request, context: Context) => {
  const [siteId, scheduleId] = await ids(context);
  if (!(await deleteSchedule(siteId, scheduleId))) throw new AppError('not_found', 'No such schedule');
  return new Response(null, { status: 204 });
});
