'use client';
// Stacked horizontal bars: prune and held reasons per sitemap file. Renders prepared data only (see
// prepareReasonsPerFile); which files and reasons get their own bar or series is decided there. With
// `onSelectFile`, a click on a file's bar reports that file (the "Other files" bar is no one file; by
// keyboard the file tree filters the same way). Sized to its box: a label column when there is room,
// each label above its bar when narrow. The drawing is hidden from screen readers and is no Tab stop; a
// hidden table says the same per file and reason.
import { Bar, Legend } from 'recharts';
import { formatCount } from '@/lib/core/format';
import type { FileRow, ReasonsPerFileData } from '@/lib/findings/chart-data';
import { ChartTable } from './chart-table';
import { HorizontalBars, LabelAbove } from './horizontal-bars';

function shorten(text: string, max = 34): string {
  return text.length <= max ? text : `…${text.slice(text.length - max + 1)}`;
}

export function ReasonsPerFileChart({
  data,
  title,
  onSelectFile,
}: {
  data: ReasonsPerFileData;
  title: string;
  onSelectFile?: (fileId: number) => void;
}) {
  const byKey = new Map(data.rows.map((row) => [row.key, row]));
  const select = (row: FileRow | undefined) => {
    if (onSelectFile && row?.fileId !== null && row?.fileId !== undefined) onSelectFile(row.fileId);
  };
  const last = data.series.length - 1;
  return (
    <>
      <HorizontalBars
        rows={data.rows}
        title={title}
        labelWidth={230}
        rightMargin={24}
        // The legend wraps onto more lines in a narrow box.
        extraHeight={[80, 110]}
        label={(key, narrow) => shorten(byKey.get(String(key))?.label ?? String(key), narrow ? 48 : 34)}
        tooltip={{
          labelFormatter: (key) => byKey.get(String(key))?.title ?? String(key),
          formatter: (value, name) => [formatCount(Number(value)), name],
        }}
      >
        {({ narrow, label }) => (
          <>
            <Legend
              verticalAlign="bottom"
              iconType="square"
              // Keep the prepared order (largest reason first), not the alphabetical default.
              itemSorter={null}
              wrapperStyle={{ fontSize: 12 }}
              formatter={(value) => <span style={{ color: '#3b424d' }}>{value}</span>}
            />
            {data.series.map((series, i) => (
              <Bar
                key={series.key}
                stackId="reasons"
                name={series.label}
                fill={series.colour}
                isAnimationActive={false}
                dataKey={(row: FileRow) => row.values[series.key] ?? 0}
                cursor={onSelectFile ? 'pointer' : undefined}
                onClick={onSelectFile ? (bar) => select((bar as { payload?: FileRow }).payload) : undefined}
              >
                {/* One label per row, above its first segment. */}
                {narrow && i === last ? <LabelAbove label={label} x={4} /> : null}
              </Bar>
            ))}
          </>
        )}
      </HorizontalBars>
      <ChartTable
        caption={title}
        columns={['Sitemap file', ...data.series.map((series) => series.label), 'Total']}
        rows={data.rows.map((row) => ({
          key: row.key,
          cells: [
            row.title,
            ...data.series.map((series) => formatCount(row.values[series.key] ?? 0)),
            formatCount(row.total),
          ],
        }))}
      />
    </>
  );
}
