// A chart's text alternative: a visually hidden table of the same numbers, read by screen readers in place
// of the drawing (the chart itself is aria-hidden and no Tab stop). Cells are text, already formatted.
// Rendered inside the chart's figure, which holds it (see .chart in chart.module.css).
export function ChartTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  /** The first column names the row (a th scope="row"); the rest are values. */
  columns: readonly string[];
  rows: readonly { key: string; cells: readonly string[] }[];
}) {
  return (
    <table className="visually-hidden" data-testid="chart-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            {row.cells.map((cell, i) =>
              i === 0 ? (
                <th key={columns[i]} scope="row">
                  {cell}
                </th>
              ) : (
                <td key={columns[i]}>{cell}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
