// One site of the list: name and host, how many runs, the latest run's outcome and figures, and what is
// going on now (a run, schedules). A table row on wide screens; site-table.module.css stacks its cells on a phone.
import Link from 'next/link';
import { formatCount } from '@/lib/core/format';
import type { SiteDto } from '@/lib/sites/schema';
import { RelativeTime } from '../../audits/_components/relative-time';
import { RunOutcome } from './run-outcome';
import table from './site-table.module.css';

export function SiteListRow({ site }: { site: SiteDto }) {
  const latest = site.latestRun;
  return (
    <tr data-testid="site-row" data-id={site.id}>
      <td className={`table__name ${table.name}`}>
        <Link href={`/sites/${site.id}`}>{site.name}</Link>
        {site.name !== site.host ? <span className={`muted small ${table.meta}`}>{site.host}</span> : null}
      </td>
      <td data-label="Runs" data-testid="site-runs">
        {formatCount(site.runCount)}
      </td>
      <td data-label="Latest run">
        {latest ? (
          <div className={table.latest}>
            <RunOutcome run={latest} />
            <span className="small">
              {formatCount(latest.declaredUrls)} declared
              {latest.findings
                ? ` · prune ${formatCount(latest.findings.prune.total)} · add ${formatCount(latest.findings.add.total)}`
                : ''}
            </span>
            {latest.finishedAt ? (
              <span className="muted small">
                Finished <RelativeTime iso={latest.finishedAt} />
              </span>
            ) : null}
          </div>
        ) : (
          <span className="muted small">No runs</span>
        )}
      </td>
      <td data-label="Now">
        <div className={table.latest}>
          {site.activeRun ? (
            <Link href={`/audits/${site.activeRun.id}`} className="small">
              Run {site.activeRun.status === 'queued' ? 'queued' : 'running'}
            </Link>
          ) : (
            <span className="muted small">Idle</span>
          )}
          <span className="muted small">
            {site.schedules === 0
              ? 'No schedule'
              : `${site.schedules} schedule${site.schedules === 1 ? '' : 's'}`}
          </span>
        </div>
      </td>
    </tr>
  );
}
