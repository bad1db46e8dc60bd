// The text alternative of the "indexed and not indexed pages over time" chart, in the app and the shared
// report alike: a visually hidden table of the same days.
import { formatCount } from '@/lib/core/format';
import type { IndexPoint } from '@/lib/gsc/gaps-chart';

export function IndexPointsTable({ points }: { points: readonly IndexPoint[] }) {
  return (
    <table className="visually-hidden">
      <caption>Indexed and not indexed pages per day</caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Indexed</th>
          <th scope="col">Not indexed</th>
        </tr>
      </thead>
      <tbody>
        {points.map((p) => (
          <tr key={p.date}>
            <td>{p.date}</td>
            <td>{p.indexed === null ? '—' : formatCount(p.indexed)}</td>
            <td>{p.notIndexed === null ? '—' : formatCount(p.notIndexed)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
