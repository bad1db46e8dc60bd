'use client';
// The start form of a spot-check (reviewers and admins): a seeded sample of the prune and held lists, the add
// list on request, and robots.txt obeyed unless the reviewer deliberately ticks the override.
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import type { TSpotCheckRequest } from '@/lib/spot-check/schema';

const DEFAULT_SAMPLE = 50;

export function SpotChecksForm({
  isStarting,
  error,
  onStart,
}: {
  isStarting: boolean;
  error: Error | null;
  onStart: (request: TSpotCheckRequest) => void;
}) {
  const id = useId();
  const [sample, setSample] = useState(String(DEFAULT_SAMPLE));
  const [seed, setSeed] = useState('');
  const [includeAdd, setIncludeAdd] = useState(false);
  const [ignoreRobots, setIgnoreRobots] = useState(false);
  const sampleSize = Number(sample);
  const seedValue = seed.trim() === '' ? undefined : Number(seed);
  const isSampleValid = Number.isInteger(sampleSize) && sampleSize >= 1;
  const isSeedValid = seedValue === undefined || (Number.isInteger(seedValue) && seedValue >= 0);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isSampleValid || !isSeedValid) return;
    onStart({
      sample: sampleSize,
      ...(seedValue === undefined ? {} : { seed: seedValue }),
      ...(includeAdd ? { includeAdd: true } : {}),
      ...(ignoreRobots ? { ignoreRobots: true } : {}),
    });
  };

  return (
    <form className="spot-form" onSubmit={submit} noValidate aria-label="Start a spot-check">
      <div className="spot-form__fields">
        <div className="field">
          <label htmlFor={`${id}-sample`} className="field__label">
            Sample size
          </label>
          <input
            id={`${id}-sample`}
            className="input"
            type="number"
            inputMode="numeric"
            min={1}
            value={sample}
            aria-invalid={!isSampleValid}
            aria-describedby={`${id}-sample-hint`}
            onChange={(e) => setSample(e.target.value)}
          />
          <span id={`${id}-sample-hint`} className={isSampleValid ? 'field__hint' : 'field__error'}>
            {isSampleValid ? 'Rows drawn across every reason.' : 'Give a whole number of at least 1.'}
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-seed`} className="field__label">
            Seed (optional)
          </label>
          <input
            id={`${id}-seed`}
            className="input"
            type="number"
            inputMode="numeric"
            min={0}
            value={seed}
            aria-invalid={!isSeedValid}
            aria-describedby={`${id}-seed-hint`}
            onChange={(e) => setSeed(e.target.value)}
          />
          <span id={`${id}-seed-hint`} className={isSeedValid ? 'field__hint' : 'field__error'}>
            {isSeedValid ? 'The same seed picks the same rows again.' : 'Give a whole number, 0 or more.'}
          </span>
        </div>
      </div>
      <label className="spot-form__check">
        <input type="checkbox" checked={includeAdd} onChange={(e) => setIncludeAdd(e.target.checked)} />
        Also check the add list
      </label>
      <label className="spot-form__check">
        <input
          type="checkbox"
          checked={ignoreRobots}
          aria-describedby={`${id}-robots-hint`}
          onChange={(e) => setIgnoreRobots(e.target.checked)}
        />
        Ignore robots.txt
      </label>
      <p id={`${id}-robots-hint`} className="field__hint spot-form__robots-hint">
        Off by default: URLs a site's robots.txt disallows are not fetched and show as errors. Tick it only
        for a site you own or may check, such as a staging site closed to crawlers.
      </p>
      {error ? <Alert title="The spot-check could not start">{error.message}</Alert> : null}
      <div>
        <button
          type="submit"
          className="button button--primary"
          disabled={isStarting || !isSampleValid || !isSeedValid}
        >
          {isStarting ? 'Starting…' : 'Start spot-check'}
        </button>
      </div>
    </form>
  );
}
