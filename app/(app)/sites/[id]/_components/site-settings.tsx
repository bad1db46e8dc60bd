'use client';
// The site's settings (admins): whether an unreached prune row may be approved only once it is confirmed
// across two crawls (the previous complete audit of the site had it unreached too). Saved on each change,
// which a polite status line then says.
import { useUpdateSite } from '@/lib/sites/hooks';
import type { SiteDetailDto } from '@/lib/sites/schema';

export function SiteSettings({ site }: { site: SiteDetailDto }) {
  const update = useUpdateSite(site.id);
  // The switch follows the click at once; the saved site then takes its place (or, refused, the old state).
  const current = site.settings.requireConfirmedUnreached;
  const isOn = update.isPending ? (update.variables.settings?.requireConfirmedUnreached ?? current) : current;
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
            onChange={(event) =>
              update.mutate({ settings: { requireConfirmedUnreached: event.target.checked } })
            }
          />
          <span>
            Only approve unreached rows confirmed across two crawls
            <span className="muted small site-settings__hint">
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
