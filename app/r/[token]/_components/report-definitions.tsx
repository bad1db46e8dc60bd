// What the report's reasons, signals and "Not added" buckets mean (a server component): each with its
// one-sentence definition and the usual fix, from lib/findings/reasons.ts, the words the app uses too.
import { formatCount } from '@/lib/core/format';
import { EXCLUDED_INFO, type ReasonInfo, reasonInfo, signalInfo } from '@/lib/findings/reasons';
import type { FindingsOverview } from '@/lib/findings/schema';

/** A tooltip with the definition and the fix, for a label shown without them. */
export function definitionTitle(info: ReasonInfo): string {
  return `${info.definition} Usual fix: ${info.fix}`;
}

function Entry({ info, count, testId }: { info: ReasonInfo; count?: number; testId: string }) {
  return (
    <div className="report-definitions__entry" data-testid={testId}>
      <dt>
        {info.label}
        {count === undefined ? null : <span className="report-definitions__n"> {formatCount(count)}</span>}
      </dt>
      <dd>
        {info.definition} <span className="report-definitions__fix">Usual fix: {info.fix}</span>
      </dd>
    </div>
  );
}

/** The reasons of a list (and the signals seen on its page), explained. */
export function ReasonDefinitions({ reasons, signals }: { reasons: string[]; signals: string[] }) {
  if (reasons.length === 0 && signals.length === 0) return null;
  return (
    <section className="report-definitions" aria-label="What the reasons mean">
      <h3 className="report-definitions__title">What the reasons mean</h3>
      <dl>
        {reasons.map((reason) => (
          <Entry key={reason} info={reasonInfo(reason)} testId={`report-reason-${reason}`} />
        ))}
        {signals.map((signal) => (
          <Entry key={signal} info={signalInfo(signal)} testId={`report-signal-${signal}`} />
        ))}
      </dl>
    </section>
  );
}

/** Undeclared crawled pages the Add list left out, bucket by bucket, in the rule's order. */
export function ExcludedDefinitions({ excluded }: { excluded: FindingsOverview['addExcluded'] }) {
  const buckets = Object.keys(EXCLUDED_INFO) as (keyof typeof EXCLUDED_INFO)[];
  return (
    <section className="report-definitions" aria-label="Not added" data-testid="report-excluded">
      <h3 className="report-definitions__title">Not added: crawled pages the Add list leaves out</h3>
      <dl>
        {buckets.map((bucket) => (
          <Entry
            key={bucket}
            info={EXCLUDED_INFO[bucket]}
            count={excluded[bucket]}
            testId={`report-excluded-${bucket}`}
          />
        ))}
      </dl>
    </section>
  );
}
