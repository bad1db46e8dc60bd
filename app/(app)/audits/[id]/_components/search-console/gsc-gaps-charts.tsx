'use client';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  Rectangle,
  ReferenceArea,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import chartStyles from '@/components/charts/chart.module.css';
// The Search Console charts: the gap per sitemap file over the 10 % and 30 % bands, and
// the property's indexed vs not indexed pages per day. Render prepared data only (lib/gsc/gaps-chart.ts);
// each figure carries a visually hidden table as its text alternative.
import { IndexPointsTable } from '@/components/charts/index-points-table';
import { formatCount } from '@/lib/core/format';
import {
  BAND_COLOURS,
  BAND_LABELS,
  BAND_LINES,
  type GapBar,
  type GapBarsData,
  type IndexPoint,
} from '@/lib/gsc/gaps-chart';

const ROW_HEIGHT = 28;

function shorten(text: string, max = 18): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function GapBarsChart({ data }: { data: GapBarsData }) {
  const byKey = new Map(data.bars.map((bar) => [bar.key, bar]));
  const height = data.bars.length * ROW_HEIGHT + 48;
  return (
    <figure className={`${chartStyles.chart} ${chartStyles['chart--contained']}`} data-testid="gsc-gap-chart">
      <figcaption>Gap per sitemap file</figcaption>
      <BarChart
        responsive
        accessibilityLayer={false}
        layout="vertical"
        data={data.bars}
        title="Share of submitted URLs not indexed, per sitemap file"
        margin={{ top: 4, right: 16, bottom: 4, left: 4 }}
        style={{ width: '100%', height }}
      >
        <ReferenceArea x1={BAND_LINES.investigate} x2={BAND_LINES.problem} fill="#fdf3e1" fillOpacity={1} />
        <ReferenceArea x1={BAND_LINES.problem} x2={100} fill="#fdecea" fillOpacity={1} />
        <CartesianGrid horizontal={false} stroke="#e1e4e9" />
        <ReferenceLine x={BAND_LINES.investigate} stroke={BAND_COLOURS.investigate} strokeDasharray="4 3" />
        <ReferenceLine x={BAND_LINES.problem} stroke={BAND_COLOURS.problem} strokeDasharray="4 3" />
        <XAxis
          type="number"
          domain={[0, 100]}
          ticks={[0, 10, 30, 50, 100]}
          tickFormatter={(value: number) => `${value} %`}
          tick={{ fontSize: 12, fill: '#525a66' }}
        />
        <YAxis
          type="category"
          dataKey="key"
          width={120}
          interval={0}
          tickFormatter={(key: string) => shorten(byKey.get(key)?.label ?? key)}
          tick={{ fontSize: 12, fill: '#16191f' }}
        />
        <Tooltip
          cursor={{ fill: '#eef0f3' }}
          labelFormatter={(key) => byKey.get(String(key))?.title ?? String(key)}
          formatter={(value, _name, item) => {
            const bar = (item as { payload?: GapBar }).payload;
            const range = bar?.low !== null && bar?.high !== null ? ` (${bar?.low}–${bar?.high} %)` : '';
            return [`${Number(value)} %${range}`, bar?.basis === 'estimate' ? 'Estimated gap' : 'Gap'];
          }}
        />
        <Bar
          dataKey="gap"
          name="Gap"
          minPointSize={2}
          isAnimationActive={false}
          shape={(props) => {
            const bar = props.payload as GapBar | undefined;
            return <Rectangle {...props} fill={BAND_COLOURS[bar?.band ?? 'normal']} />;
          }}
        />
      </BarChart>
      <p className="muted small">
        Shaded: {BAND_LINES.investigate}–{BAND_LINES.problem} % investigate, over {BAND_LINES.problem} %
        problem.
        {data.folded > 0
          ? ` The ${data.bars.length} largest gaps are drawn; the table lists every file.`
          : ''}
        {data.insufficient > 0
          ? ` ${data.insufficient === 1 ? 'A file' : `${data.insufficient} files`} without enough data ${data.insufficient === 1 ? 'is' : 'are'} not drawn.`
          : ''}
      </p>
      <table className="visually-hidden">
        <caption>Gap per sitemap file</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Gap</th>
            <th scope="col">Band</th>
          </tr>
        </thead>
        <tbody>
          {data.bars.map((bar) => (
            <tr key={bar.key}>
              <td>{bar.title}</td>
              <td>
                {bar.gap} %{bar.low !== null && bar.high !== null ? ` (${bar.low}–${bar.high} %)` : ''}
              </td>
              <td>{BAND_LABELS[bar.band]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

export function IndexedOverTimeChart({ points }: { points: IndexPoint[] }) {
  return (
    <figure
      className={`${chartStyles.chart} ${chartStyles['chart--contained']}`}
      data-testid="gsc-index-chart"
    >
      <figcaption>Indexed and not indexed pages over time (whole property)</figcaption>
      <LineChart
        responsive
        accessibilityLayer={false}
        data={points}
        title="Indexed and not indexed pages per day"
        margin={{ top: 8, right: 16, bottom: 4, left: 4 }}
        style={{ width: '100%', height: 240 }}
      >
        <CartesianGrid stroke="#e1e4e9" />
        <XAxis dataKey="date" tick={{ fontSize: 12, fill: '#525a66' }} minTickGap={24} />
        <YAxis
          width={48}
          allowDecimals={false}
          tickFormatter={(value: number) => formatCount(value)}
          tick={{ fontSize: 12, fill: '#525a66' }}
        />
        <Tooltip formatter={(value, name) => [formatCount(Number(value)), name]} />
        <Legend verticalAlign="bottom" iconType="plainline" wrapperStyle={{ fontSize: 12 }} />
        <Line
          type="monotone"
          dataKey="indexed"
          name="Indexed"
          stroke={BAND_COLOURS.normal}
          strokeWidth={2}
          dot={false}
          connectNulls
          isAnimationActive={false}
        />
        <Line
          type="monotone"
          dataKey="notIndexed"
          name="Not indexed"
          stroke={BAND_COLOURS.problem}
          strokeWidth={2}
          dot={false}
          connectNulls
          isAnimationActive={false}
        />
      </LineChart>
      <IndexPointsTable points={points} />
    </figure>
  );
}
