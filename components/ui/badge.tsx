// A small coloured pill for statuses and short labels.
import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export function Badge({
  tone = 'neutral',
  dot = true,
  children,
  testId,
}: {
  tone?: BadgeTone;
  dot?: boolean;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <span className={`badge badge--${tone}${dot ? '' : ' badge--plain'}`} data-testid={testId}>
      {children}
    </span>
  );
}
