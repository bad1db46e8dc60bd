// What a finding's reasons and signals mean and how each is usually fixed, in the words of
// lib/findings/reasons.ts (written once, shown on the panel). No hooks: the shared report can use it too.

import type { ReasonInfo } from '@/lib/findings/reasons';
import { reasonInfo, signalInfo } from '@/lib/findings/reasons';
import styles from './reason-explanations.module.css';

function Explanation({ info, note, code }: { info: ReasonInfo; note?: string; code: string }) {
  return (
    <li className={styles.explanation} data-code={code}>
      <p>
        <strong>{info.label}</strong>
        {note ? <span className="muted small"> · {note}</span> : null}
      </p>
      <p>{info.definition}</p>
      <p className="small">
        <span className={styles.explanation__fix}>Usual fix:</span> {info.fix}
      </p>
    </li>
  );
}

export function ReasonExplanations({
  reasons,
  signals,
}: {
  reasons: readonly string[];
  signals: readonly string[];
}) {
  return (
    <section className={`stack ${styles.explanations}`} data-testid="reason-explanations">
      <h3>{reasons.length === 1 ? 'Reason' : 'Reasons'}</h3>
      <ul className={styles['explanation-list']}>
        {reasons.map((reason, index) => (
          <Explanation
            key={reason}
            code={reason}
            info={reasonInfo(reason)}
            note={reasons.length === 1 ? undefined : index === 0 ? 'the first that applies' : 'also applies'}
          />
        ))}
      </ul>
      {signals.length > 0 ? (
        <>
          <h3>Signals</h3>
          <ul className={styles['explanation-list']} data-testid="signal-explanations">
            {signals.map((signal) => (
              <Explanation key={signal} code={signal} info={signalInfo(signal)} />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
