'use client';
// Stacked horizontal bars: prune and held reasons per sitemap file. Renders prepared data only (see
// prepareReasonsPerFile); which files and reasons get their own bar or series is decided there. With
// `onSelectFile`, a click on a file's bar reports that file (the "Other files" bar is no one file).
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '@/lib/audits/format';
import type { FileRow, ReasonsPerFileData } from '@/lib/findings/chart-data';

const ROW_HEIGHT = 30;

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
  const height = data.rows.length * ROW_HEIGHT + 80;
  return (
    <BarChart
      responsive
      layout="vertical"
      data={data.rows}
      title={title}
      margin={{ top: 4, right: 24, bottom: 4, left: 4 }}
      style={{ width: '100%', height }}
    >
      <CartesianGrid horizontal={false} stroke="#e1e4e9" />
      <XAxis
        type="number"
        tickFormatter={(value: number) => formatCount(value)}
        tick={{ fontSize: 12, fill: '#525a66' }}
        allowDecimals={false}
      />
      <YAxis
        type="category"
        dataKey="key"
        width={230}
        interval={0}
        tickFormatter={(key: string) => shorten(byKey.get(key)?.label ?? key)}
        tick={{ fontSize: 12, fill: '#16191f' }}
      />
      <Tooltip
        cursor={{ fill: '#eef0f3' }}
        labelFormatter={(key) => byKey.get(String(key))?.title ?? String(key)}
        formatter={(value, name) => [formatCount(Number(value)), name]}
      />
      <Legend
        verticalAlign="bottom"
        iconType="square"
        // Keep the prepared order (largest reason first), not the alphabetical default.
        itemSorter={null}
        wrapperStyle={{ fontSize: 12 }}
        formatter={(value) => <span style={{ color: '#3b424d' }}>{value}</span>}
      />
      {data.series.map((series) => (
        <Bar
          key={series.key}
          stackId="reasons"
          name={series.label}
          fill={series.colour}
          isAnimationActive={false}
          dataKey={(row: FileRow) => row.values[series.key] ?? 0}
          cursor={onSelectFile ? 'pointer' : undefined}
          onClick={onSelectFile ? (bar) => select((bar as { payload?: FileRow }).payload) : undefined}
        />
      ))}
    </BarChart>
  );
}
