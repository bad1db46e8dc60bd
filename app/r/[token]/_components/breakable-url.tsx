// A URL that wraps between its words: a <wbr> after each run of separators (urlBreakParts), so a narrow
// column breaks "…/old/" | "page-001" rather than "…/old/p" | "age-001". Copying it copies the URL as is.
import { Fragment } from 'react';
import { urlBreakParts } from '@/lib/report/format';

export function BreakableUrl({ url }: { url: string }) {
  const parts = urlBreakParts(url);
  // One element around the parts: in a phone card the cell is a flex row, whose items they must not become.
  return (
    <span className="report-url">
      {parts.map((part, i) => (
        // The parts of one URL, in order: a position is the only key they have.
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list rendered once
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </span>
  );
}
