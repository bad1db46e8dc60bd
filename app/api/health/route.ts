// GET /api/health: for whoever runs the app (load balancer, uptime check). No session needed, so it says
// nothing a stranger could use: no versions, error texts or data; counts, ages, and the workers' host
// names and pids (an operator running N machines needs to see which ones work).

import { healthReport } from '@/lib/health/service';
import { json, route } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

export const GET = route(async () => {
  const report = await healthReport();
  return json(report, { status: report.status === 'ok' ? 200 : 503 });
});
