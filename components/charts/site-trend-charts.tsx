'use client';
// A site's trends over its runs (oldest on the left): declared URLs of complete runs, a list's findings per
// run stacked by reason, and shares in percent (the Search Console gap, the spot-check rot rate). Render prepared data only (lib/sites/trends.ts); each
// drawing is hidden from screen readers and is no Tab stop, with a hidden table beside it saying the same.
import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '@/lib/core/format';
import type { DeclaredPoint, ListTrend } from '@/lib/sites/trends';
import chartStyles from './chart.module.css';
import { ChartTable } from './chart-table';

const HEIGHT = 220;
const AXIS_TICK = { fontSize: 12, fill: '#525a66' };
const MARGIN = { top: 8, right: 16, bottom: 4, left: 4 };
const LEGEND_TEXT = '#3b424d';

function CountAxis() {
  return (
    <YAxis
      width={52}
      allowDecimals={false}
      tickFormatter={(value: number) => formatCount(value)}
      tick={AXIS_TICK}
    />
  );
}

function RunAxis() {
  // minTickGap thins the labels at phone width instead of overlapping them; the first and the last run are
  // always labelled (Recharts moves their text inside the chart), so two runs never show one label only.
  return <XAxis dataKey="label" tick={AXIS_TICK} minTickGap={16} interval="preserveStartEnd" />;
}

/** One value per run as a line, with its hidden table: the frame both line charts share. */
function TrendLine<K extends string>({
  points,
  dataKey,
  format,
  axis,
  title,
  series,
  colour,
  testId,
}: {
  points: ({ key: string; label: string } & Record<K, number>)[];
  dataKey: K;
  /** A value as the tooltip and the table show it. */
  format: (value: number) => string;
  axis: ReactNode;
  title: string;
  series: string;
  colour: string;
  testId: string;
}) {
  return (
    <figure className={`${chartStyles.chart} ${chartStyles['chart--contained']}`} data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div aria-hidden="true">
        <LineChart
          responsive
          accessibilityLayer={false}
          data={points}
          title={title}
          margin={MARGIN}
          style={{ width: '100%', height: HEIGHT }}
        >
          <CartesianGrid stroke="#e1e4e9" />
          <RunAxis />
          {axis}
          <Tooltip formatter={(raw) => [format(Number(raw)), series]} isAnimationActive={false} />
          <Line
            type="monotone"
            dataKey={dataKey}
            name={series}
            stroke={colour}
            strokeWidth={2}
            dot={{ r: 3 }}
            isAnimationActive={false}
          />
        </LineChart>
      </div>
      <ChartTable
        caption={title}
        columns={['Run', series]}
        rows={points.map((point) => ({ key: point.key, cells: [point.label, format(point[dataKey])] }))}
      />
    </figure>
  );
}

export function DeclaredUrlsChart({ points }: { points: DeclaredPoint[] }) {
  return (
    <TrendLine
      points={points}
      dataKey="declared"
      format={formatCount}
      axis={<CountAxis />}
      title="Declared URLs per complete run"
      series="Declared URLs"
      colour="#2563eb"
      testId="site-declared-chart"
    />
  );
}

export function ListByReasonChart({
  trend,
  title,
  testId,
}: {
  trend: ListTrend;
  title: string;
  testId: string;
}) {
  const rows = trend.rows.map((row) => ({ key: row.key, label: row.label, ...row.counts }));
  // Runs with no row on the list draw an empty frame with no scale, which reads as a broken chart.
  if (trend.rows.every((row) => row.total === 0)) {
    return (
      <figure className={`${chartStyles.chart} ${chartStyles['chart--contained']}`} data-testid={testId}>
        <figcaption>{title}</figcaption>
        <p className="muted small" data-testid={`${testId}-empty`}>
          None in {trend.rows.length === 1 ? 'this run' : `these ${trend.rows.length} runs`}.
        </p>
      </figure>
    );
  }
  return (
    <figure className={`${chartStyles.chart} ${chartStyles['chart--contained']}`} data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div aria-hidden="true">
        <BarChart
          responsive
          accessibilityLayer={false}
          data={rows}
          title={title}
          margin={MARGIN}
          style={{ width: '100%', height: HEIGHT + 40 }}
        >
          <CartesianGrid vertical={false} stroke="#e1e4e9" />
          <RunAxis />
          <CountAxis />
          <Tooltip
            cursor={{ fill: '#eef0f3' }}
            formatter={(value, name) => [formatCount(Number(value)), name]}
            isAnimationActive={false}
          />
          <Legend
            verticalAlign="bottom"
            iconType="square"
            wrapperStyle={{ fontSize: 12 }}
            // Dark text beside each colour's swatch: yellow-green or orange text on white is hard to read.
            formatter={(value) => <span style={{ color: LEGEND_TEXT }}>{value}</span>}
          />
          {trend.series.map((series) => (
            <Bar
              key={series.key}
              dataKey={series.key}
              name={series.label}
              stackId="reasons"
              fill={series.colour}
              maxBarSize={48}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </div>
      <ChartTable
        caption={title}
        columns={['Run', 'Total', 'By reason']}
        rows={trend.rows.map((row) => ({
          key: row.key,
          cells: [
            row.label,
            formatCount(row.total),
            trend.series
              .filter((series) => (row.counts[series.key] ?? 0) > 0)
              .map((series) => `${series.label}: ${formatCount(row.counts[series.key] ?? 0)}`)
              .join(', ') || 'none',
          ],
        }))}
      />
    </figure>
  );
}

/** A share in percent per run: the Search Console gap, or the spot-check rot rate. */
export function PercentTrendChart({
  points,
  title,
  series,
  colour,
  testId,
}: {
  points: { key: string; label: string; percent: number }[];
  title: string;
  /** What the line is, in the tooltip and the hidden table's column. */
  series: string;
  colour: string;
  testId: string;
}) {
  return (
    <TrendLine
      points={points}
      dataKey="percent"
      format={(percent) => `${percent} %`}
      axis={
        <YAxis
          width={52}
          domain={[0, 100]}
          ticks={[0, 10, 30, 50, 100]}
          tickFormatter={(tick: number) => `${tick} %`}
          tick={AXIS_TICK}
        />
      }
      title={title}
      series={series}
      colour={colour}
      testId={testId}
    />
  );
}
