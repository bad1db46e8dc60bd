// What settling an audit's outcome does for its site, in the same transaction as the outcome (so a run is
// in its site's history exactly when it is settled, and a crash in between leaves neither).
import 'server-only';
import type { DbClient } from '@/lib/db/types';
import { attachSite } from './mutations';

export async function settleSiteRun(
  client: DbClient,
  auditId: string,
  _outcome: 'succeeded' | 'partial',
): Promise<void> {
  await attachSite(client, auditId);
}
