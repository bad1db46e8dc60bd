'use client';
// Stacked horizontal bars: prune and held reasons per sitemap file. Renders prepared data only (see
// prepareReasonsPerFile); which files and reasons get their own bar or series is decided there. With
// `onSelectFile`, a click on a file's bar reports that file (the "Other files" bar is no one file; by
// keyboard the file tree filters the same way). Sized to its box: a label column when there is room,
// each label above its bar when narrow. The drawing is hidden from screen readers and is no Tab stop; a
// hidden table says the same per file and reason.
import { Bar, BarChart, CartesianGrid, LabelList, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '@/lib/audits/format';
import type { FileRow, ReasonsPerFileData } from '@/lib/findings/chart-data';
import { ChartTable } from './chart-table';
import { NARROW_CHART, useWidth } from './use-width';

const ROW_HEIGHT = 30;
const NARROW_ROW_HEIGHT = 42;

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
  const [ref, width] = useWidth<HTMLDivElement>();
  const narrow = width !== null && width < NARROW_CHART;
  const label = (key: unknown) => shorten(byKey.get(String(key))?.label ?? String(key), narrow ? 48 : 34);
  // The legend wraps onto more lines in a narrow box.
  const height = data.rows.length * (narrow ? NARROW_ROW_HEIGHT : ROW_HEIGHT) + (narrow ? 110 : 80);
  const last = data.series.length - 1;
  return (
    <>
      <div ref={ref} aria-hidden="true" style={{ width: '100%', minHeight: height }}>
        {width === null ? null : (
          <BarChart
            responsive
            accessibilityLayer={false}
            layout="vertical"
            data={data.rows}
            title={title}
            barCategoryGap={narrow ? '38%' : '10%'}
            margin={{ top: narrow ? 16 : 4, right: 24, bottom: 4, left: 4 }}
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
              width={narrow ? 0 : 230}
              hide={narrow}
              interval={0}
              tickFormatter={label}
              tick={{ fontSize: 12, fill: '#16191f' }}
            />
            <Tooltip
              cursor={{ fill: '#eef0f3' }}
              isAnimationActive={false}
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
                {narrow && i === last ? (
                  <LabelList
                    dataKey="key"
                    content={(props) => (
                      <text x={4} y={Number(props.y) - 5} fontSize={12} fill="#16191f">
                        {label(props.value)}
                      </text>
                    )}
                  />
                ) : null}
              </Bar>
            ))}
          </BarChart>
        )}
      </div>
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
