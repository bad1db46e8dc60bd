'use client';
// The site's runs, newest first: when, how started, outcome (complete or not), declared URLs, prune and add,
// sitemap files reused (the server answered 304 Not Modified), and the change events each wrote; a link to each audit. Ticking two runs
// offers their diff (older → newer). A table on wide screens, a card per run on a phone (site-table.module.css).
import Link from 'next/link';
import { useState } from 'react';
import { formatCount } from '@/lib/core/format';
import { runBaseName, runTimeLabels } from '@/lib/sites/run-times';
import type { SiteDetailDto, SiteRunDto } from '@/lib/sites/schema';
import { RunOutcome } from '../../../_components/run-outcome';
import table from '../../../_components/site-table.module.css';
import { TRIGGER_LABELS } from '../labels';
import styles from './site-runs.module.css';

function ChangesCell({ run }: { run: SiteRunDto }) {
  const { url_added, url_lastmod_changed, url_removed_pending, url_removed_confirmed, url_moved } =
    run.changes;
  const total = url_added + url_lastmod_changed + url_removed_pending + url_removed_confirmed + url_moved;
  if (total === 0) return <span className="muted small">{run.complete ? 'None' : '—'}</span>;
  return (
    <span className="small" data-testid="run-changes" data-value={total}>
      +{formatCount(url_added)} added · {formatCount(url_lastmod_changed)} lastmod changed ·{' '}
      {formatCount(url_removed_pending)} removal pending · {formatCount(url_removed_confirmed)} removed
      {url_moved > 0 ? ` · ${formatCount(url_moved)} moved` : ''}
    </span>
  );
}

/** The two runs chosen for a diff, older first; ticking a third lets go of the earliest ticked. */
function useComparePair(): [string[], (id: string, on: boolean) => void] {
  const [chosen, setChosen] = useState<string[]>([]);
  const toggle = (id: string, on: boolean) =>
    setChosen((was) => (on ? [...was.filter((x) => x !== id), id].slice(-2) : was.filter((x) => x !== id)));
  return [chosen, toggle];
}

export function SiteRuns({ site }: { site: SiteDetailDto }) {
  // The names the trend charts' axis gives the runs, with the year: runs of one minute get their seconds.
  // The site page is read in the browser only, so the reader's zone is safe.
  const names = runTimeLabels(site.runs, { withYear: true });
  const formatTime = (run: SiteRunDto) => names.get(run.id) ?? run.createdAt;
  const [chosen, toggle] = useComparePair();
  const byId = new Map(site.runs.map((run) => [run.id, run]));
  const pair = chosen
    .map((id) => byId.get(id))
    .filter((run): run is SiteRunDto => run !== undefined)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const [older, newer] = pair;
  return (
    <section className="card" aria-labelledby="site-runs-title">
      <div className={`card__header ${styles.header}`}>
        <h2 id="site-runs-title">Runs</h2>
        {older && newer ? (
          <Link
            href={`/sites/${site.id}/diff?from=${older.id}&to=${newer.id}`}
            className="button button--small button--primary"
            data-testid="compare-runs"
          >
            Compare the two runs
          </Link>
        ) : (
          <span className="muted small">Tick two runs to compare them</span>
        )}
      </div>
      <div className="table-wrap">
        <table className={`table ${table.cards}`} data-testid="site-runs">
          <caption className="visually-hidden">Runs of {site.name}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Outcome</th>
              <th scope="col">Declared</th>
              <th scope="col">Prune</th>
              <th scope="col">Add</th>
              <th
                scope="col"
                title="Sitemap files the server answered 304 Not Modified for: read again from the previous run"
              >
                Reused files
              </th>
              <th scope="col">Changes</th>
              <th scope="col">Compare</th>
            </tr>
          </thead>
          <tbody>
            {site.runs.map((run) => (
              <tr key={run.id} data-testid="site-run" data-id={run.id} data-trigger={run.trigger}>
                <td className={`table__name ${table.name}`}>
                  <Link href={`/audits/${run.id}`}>{formatTime(run)}</Link>
                  <span className={`muted small ${table.meta}`}>
                    {TRIGGER_LABELS[run.trigger]} · {runBaseName(run.name)}
                  </span>
                  {run.crawlRepeatOf ? (
                    <span className={`small ${table.meta}`} data-testid="run-crawl-repeated">
                      Same crawl as the previous run: confirms nothing
                    </span>
                  ) : null}
                </td>
                <td data-label="Outcome">
                  <RunOutcome run={run} />
                </td>
                <td data-label="Declared" className="num">
                  {formatCount(run.declaredUrls)}
                </td>
                <td data-label="Prune" className="num">
                  {run.findings ? formatCount(run.findings.prune.total) : '—'}
                </td>
                <td data-label="Add" className="num">
                  {run.findings ? formatCount(run.findings.add.total) : '—'}
                </td>
                <td data-label="Reused files" className="num" data-testid="run-reused">
                  {formatCount(run.reusedFiles)}
                </td>
                <td data-label="Changes">
                  <ChangesCell run={run} />
                </td>
                <td data-label="Compare">
                  <label className={styles.pick}>
                    <input
                      type="checkbox"
                      checked={chosen.includes(run.id)}
                      onChange={(event) => toggle(run.id, event.target.checked)}
                      data-testid="compare-run"
                    />
                    <span className="visually-hidden">Compare the run of {formatTime(run)}</span>
                  </label>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
