'use client';
// "5 min ago", kept fresh every 30 s, with the exact local time on hover.
import { useEffect, useState } from 'react';
import { formatDateTime, formatRelativeTime } from '@/lib/core/format';

export function RelativeTime({ iso }: { iso: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelativeTime(iso, now)}
    </time>
  );
}
