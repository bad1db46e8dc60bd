// A URL that wraps between its words: a <wbr> after each run of separators (lib/urls/breaks.ts), never
// letter by letter unless one word is wider than the line. Copying it copies the URL as is. Used wherever
// a URL must be read whole in a narrow column: the review, the file tree, spot-checks, the shared report.
import { Fragment } from 'react';
import { urlBreakParts } from '@/lib/urls/breaks';

export function BreakableUrl({ url }: { url: string }) {
  const parts = urlBreakParts(url);
  // One element around the parts: in a phone card the cell is a flex row, whose items they must not become.
  return (
    <span className="breakable-url">
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one URL, in order, never reordered
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </span>
  );
}
