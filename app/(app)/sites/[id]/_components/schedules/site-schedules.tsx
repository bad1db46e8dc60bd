'use client';
// The site's schedules: everyone sees each one's cadence, time zone, next and last run and why its last due
// time started nothing; admins create them (daily at HH:MM, weekly, or a cron expression, in a time zone),
// switch them on and off and delete them. A due schedule repeats the site's newest audit.
import Link from 'next/link';
import { useId, useState } from 'react';
import { useCan } from '@/app/session-context';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { useDateTimeFormat } from '@/components/ui/date-time';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { useCreateSchedule, useDeleteSchedule, useSchedules, useSetScheduleEnabled } from '@/lib/sites/hooks';
import { cadenceText, WEEKDAYS } from '@/lib/sites/schedule-text';
import {
  SCHEDULE_CADENCES,
  type ScheduleDto,
  type SiteDetailDto,
  type TScheduleInput,
} from '@/lib/sites/schema';
import list from '../item-list.module.css';

type Cadence = (typeof SCHEDULE_CADENCES)[number];
const CADENCE_LABELS: Record<Cadence, string> = { daily: 'Daily', weekly: 'Weekly', cron: 'Cron expression' };

function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

function ScheduleForm({ siteId }: { siteId: string }) {
  const create = useCreateSchedule(siteId);
  const [cadence, setCadence] = useState<Cadence>('daily');
  const [at, setAt] = useState('06:00');
  const [weekday, setWeekday] = useState(1);
  const [cron, setCron] = useState('');
  const [timezone, setTimezone] = useState(browserZone);
  const ids = {
    cadence: useId(),
    at: useId(),
    weekday: useId(),
    cron: useId(),
    zone: useId(),
    error: useId(),
  };

  const submit = () => {
    const input: TScheduleInput =
      cadence === 'cron'
        ? { cadence, cron, timezone }
        : cadence === 'weekly'
          ? { cadence, at, weekday, timezone }
          : { cadence, at, timezone };
    create.mutate(input, { onSuccess: () => setCron('') });
  };

  return (
    <form
      className={list.form}
      aria-label="New schedule"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Field label="Repeat" id={ids.cadence} size="small">
        {(control) => (
          <select
            {...control}
            className="select select--small"
            value={cadence}
            onChange={(event) => setCadence(event.target.value as Cadence)}
          >
            {SCHEDULE_CADENCES.map((value) => (
              <option key={value} value={value}>
                {CADENCE_LABELS[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      {cadence === 'weekly' ? (
        <Field label="On" id={ids.weekday} size="small">
          {(control) => (
            <select
              {...control}
              className="select select--small"
              value={weekday}
              onChange={(event) => setWeekday(Number(event.target.value))}
            >
              {WEEKDAYS.map((day, index) => (
                <option key={day} value={index}>
                  {day}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      {cadence === 'cron' ? (
        <Field
          label="Cron expression (minute hour day month weekday)"
          id={ids.cron}
          describedBy={create.isError ? ids.error : undefined}
          size="small"
          className={list.wide}
        >
          {(control) => (
            <input
              {...control}
              className="input input--small"
              value={cron}
              required
              placeholder="0 6 * * 1-5"
              spellCheck={false}
              autoComplete="off"
              aria-invalid={create.isError || undefined}
              onChange={(event) => setCron(event.target.value)}
            />
          )}
        </Field>
      ) : (
        <Field label="At" id={ids.at} size="small">
          {(control) => (
            <input
              {...control}
              type="time"
              className="input input--small"
              value={at}
              required
              onChange={(event) => setAt(event.target.value)}
            />
          )}
        </Field>
      )}
      <Field label="Time zone" id={ids.zone} size="small">
        {(control) => (
          <input
            {...control}
            className="input input--small"
            value={timezone}
            required
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => setTimezone(event.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="button button--primary button--small" disabled={create.isPending}>
        {create.isPending ? 'Adding…' : 'Add schedule'}
      </button>
      {create.isError ? (
        <p id={ids.error} className={`field__error ${list.note}`} role="alert">
          Not added: {create.error.message}
        </p>
      ) : null}
    </form>
  );
}

function ScheduleRow({ schedule, siteId }: { schedule: ScheduleDto; siteId: string }) {
  const isAdmin = useCan('admin');
  const formatTime = useDateTimeFormat();
  const setEnabled = useSetScheduleEnabled(siteId);
  const remove = useDeleteSchedule(siteId);
  const text = cadenceText(schedule);
  // The switch follows the click at once; the server's answer then takes its place (or, refused, the old
  // state). Held in state set by the change itself: the mutation's pending state reaches the render a tick
  // later, and a render in between put the old value back into the controlled box for a moment.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const enabled = wanted ?? schedule.enabled;
  return (
    <li className={list.item} data-testid="schedule" data-id={schedule.id}>
      <div className={list.head}>
        <strong>{text}</strong>
        <span className="muted small">{schedule.timezone}</span>
        <Badge tone={enabled ? 'success' : 'neutral'} dot={false}>
          {enabled ? 'On' : 'Off'}
        </Badge>
      </div>
      <dl className={`small ${list.facts}`}>
        <div>
          <dt>Next run</dt>
          <dd data-testid="schedule-next">
            {enabled && schedule.nextRunAt ? formatTime(schedule.nextRunAt) : '—'}
          </dd>
        </div>
        <div>
          <dt>Last run</dt>
          <dd data-testid="schedule-last">
            {schedule.lastRunAt ? (
              schedule.lastAuditId ? (
                <Link href={`/audits/${schedule.lastAuditId}`}>{formatTime(schedule.lastRunAt)}</Link>
              ) : (
                formatTime(schedule.lastRunAt)
              )
            ) : (
              'Not yet'
            )}
          </dd>
        </div>
        {schedule.lastSkip ? (
          <div>
            <dt>Last skipped</dt>
            <dd data-testid="schedule-skip">{schedule.lastSkip}</dd>
          </div>
        ) : null}
      </dl>
      {isAdmin ? (
        <div className={list.actions}>
          <label className="choice">
            <input
              type="checkbox"
              checked={enabled}
              disabled={setEnabled.isPending}
              onChange={(event) => {
                setWanted(event.target.checked);
                setEnabled.mutate(
                  { id: schedule.id, enabled: event.target.checked },
                  { onSettled: () => setWanted(null) },
                );
              }}
            />
            <span>Enabled</span>
          </label>
          <ConfirmButton
            title="Delete this schedule?"
            message={
              <>
                <strong>{text}</strong> stops starting runs. Runs it started stay.
              </>
            }
            confirmLabel="Delete schedule"
            busy={remove.isPending}
            onConfirm={() => remove.mutate(schedule.id)}
          >
            Delete
          </ConfirmButton>
          {setEnabled.isError || remove.isError ? (
            <span className="field__error" role="alert">
              {(setEnabled.error ?? remove.error)?.message}
            </span>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

export function SiteSchedules({ site }: { site: SiteDetailDto }) {
  const isAdmin = useCan('admin');
  const schedules = useSchedules(site.id);
  const items = schedules.data ?? [];
  return (
    <section className="card" aria-labelledby="site-schedules-title">
      <div className="card__header">
        <h2 id="site-schedules-title">Schedules</h2>
        <span className="muted small">A due schedule runs the newest audit again; one run at a time</span>
      </div>
      <div className="card__body stack">
        {schedules.isError && !schedules.data ? (
          <Alert title="Could not load the schedules">{schedules.error.message}</Alert>
        ) : schedules.isPending ? (
          <div className="skeleton" style={{ height: '4rem' }} aria-hidden="true" />
        ) : items.length === 0 ? (
          <EmptyState title="No schedule">
            {isAdmin ? 'Add one below to run this site by itself.' : 'An admin can schedule this site.'}
          </EmptyState>
        ) : (
          <ul className={list.list} data-testid="schedules">
            {items.map((schedule) => (
              <ScheduleRow key={schedule.id} schedule={schedule} siteId={site.id} />
            ))}
          </ul>
        )}
        {isAdmin ? <ScheduleForm siteId={site.id} /> : null}
      </div>
    </section>
  );
}
