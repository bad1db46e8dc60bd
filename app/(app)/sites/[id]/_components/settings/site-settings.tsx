'use client';
// The site's settings (admins): whether an unreached prune row may be approved only once it is confirmed
// across two crawls (the previous complete audit of the site had it unreached too). Saved on each change,
// which a polite status line then says.
import { useState } from 'react';
import { useUpdateSite } from '@/lib/sites/hooks';
import type { SiteDetailDto } from '@/lib/sites/schema';
import styles from './site-settings.module.css';

export function SiteSettings({ site }: { site: SiteDetailDto }) {
  const update = useUpdateSite(site.id);
  // The switch follows the click at once; the saved site then takes its place (or, refused, the old state).
  // Held in state set by the change itself: the mutation's pending state reaches the render a tick later,
  // and a render in between put the old value back into the controlled box for a moment.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const isOn = wanted ?? site.settings.requireConfirmedUnreached;
  return (
    <section className="card" aria-labelledby="site-settings-title">
      <div className="card__header">
        <h2 id="site-settings-title">Settings</h2>
      </div>
      <div className="card__body stack">
        <label className="choice">
          <input
            type="checkbox"
            checked={isOn}
            disabled={update.isPending}
            data-testid="require-confirmed-unreached"
            onChange={(event) => {
              setWanted(event.target.checked);
              update.mutate(
                { settings: { requireConfirmedUnreached: event.target.checked } },
                { onSettled: () => setWanted(null) },
              );
            }}
          />
          <span>
            Only approve unreached rows confirmed across two crawls
            <span className={`muted small ${styles.hint}`}>
              An “Unreached by crawl” prune row of this site's audits can be approved once the previous
              complete audit had it unreached too.
            </span>
          </span>
        </label>
        {/* Always in the page, so a screen reader hears "Saved" when it fills in. */}
        <p className="muted small site-settings__status" role="status" data-testid="site-settings-status">
          {update.isPending ? 'Saving…' : update.isSuccess ? 'Saved' : ''}
        </p>
        {update.isError ? (
          <p className="field__error" role="alert">
            Not saved: {update.error.message}
          </p>
        ) : null}
      </div>
    </section>
  );
}
