'use client';
// The start form of a spot-check (reviewers and admins): a seeded sample of the prune and held lists, the add
// list on request, and robots.txt obeyed unless the reviewer deliberately ticks the override.
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import pagerStyles from '@/components/ui/cursor-pager.module.css';
import type { TSpotCheckRequest } from '@/lib/spot-check/schema';
import styles from './spot-checks.module.css';
import spotRuns from './spot-runs.module.css';

const DEFAULT_SAMPLE = 50;

/** A whole-number input with its hint, which turns into the error while the value is not valid. */
function NumberField(props: {
  id: string;
  label: string;
  min: number;
  value: string;
  onChange: (value: string) => void;
  valid: boolean;
  hint: string;
  error: string;
}) {
  const { id, label, min, value, onChange, valid, hint, error } = props;
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        className="input"
        type="number"
        inputMode="numeric"
        min={min}
        value={value}
        aria-invalid={!valid}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      <span id={`${id}-hint`} className={valid ? 'field__hint' : 'field__error'}>
        {valid ? hint : error}
      </span>
    </div>
  );
}

export function SpotChecksForm({
  isStarting,
  blockedBy,
  error,
  onStart,
}: {
  isStarting: boolean;
  /** The name of a run still going ("Run #4"): one at a time, so the site is not fetched twice over. */
  blockedBy: string | null;
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
    if (!isSampleValid || !isSeedValid || blockedBy) return;
    onStart({
      sample: sampleSize,
      ...(seedValue === undefined ? {} : { seed: seedValue }),
      ...(includeAdd ? { includeAdd: true } : {}),
      ...(ignoreRobots ? { ignoreRobots: true } : {}),
    });
  };

  return (
    <form className={spotRuns['spot-form']} onSubmit={submit} noValidate aria-label="Start a spot-check">
      <div className={spotRuns['spot-form__fields']}>
        <NumberField
          id={`${id}-sample`}
          label="Sample size"
          min={1}
          value={sample}
          onChange={setSample}
          valid={isSampleValid}
          hint="Rows drawn across every reason."
          error="Give a whole number of at least 1."
        />
        <NumberField
          id={`${id}-seed`}
          label="Seed (optional)"
          min={0}
          value={seed}
          onChange={setSeed}
          valid={isSeedValid}
          hint="The same seed picks the same rows again."
          error="Give a whole number, 0 or more."
        />
      </div>
      <label className={styles['spot-form__check']}>
        <input type="checkbox" checked={includeAdd} onChange={(e) => setIncludeAdd(e.target.checked)} />
        Also check the add list
      </label>
      <label className={styles['spot-form__check']}>
        <input
          type="checkbox"
          checked={ignoreRobots}
          aria-describedby={`${id}-robots-hint`}
          onChange={(e) => setIgnoreRobots(e.target.checked)}
        />
        Ignore robots.txt
      </label>
      <p id={`${id}-robots-hint`} className={`field__hint ${styles['spot-form__robots-hint']}`}>
        Off by default: URLs a site's robots.txt disallows are not fetched and show as errors. Tick it only
        for a site you own or may check, such as a staging site closed to crawlers.
      </p>
      {error ? <Alert title="The spot-check could not start">{error.message}</Alert> : null}
      <div className={pagerStyles['spot-pager']}>
        <button
          type="submit"
          className="button button--primary"
          disabled={isStarting || blockedBy !== null || !isSampleValid || !isSeedValid}
          aria-describedby={blockedBy ? `${id}-blocked` : undefined}
        >
          {isStarting ? 'Starting…' : 'Start spot-check'}
        </button>
        {blockedBy ? (
          <span id={`${id}-blocked`} className="field__hint" data-testid="spot-start-blocked">
            {blockedBy} is still running: wait for it to end or cancel it to start another.
          </span>
        ) : null}
      </div>
    </form>
  );
}
