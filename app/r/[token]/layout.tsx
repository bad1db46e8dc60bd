// The shared report's shell: no app header or navigation, only the report (and its print stylesheet).
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import '../report.css';

export const metadata: Metadata = {
  title: 'Audit report',
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

export default function SharedReportLayout({ children }: { children: ReactNode }) {
  return <div className="report">{children}</div>;
}
