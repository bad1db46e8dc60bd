'use client';
// Horizontal bars: how many findings each reason produced, grouped by list. Renders prepared data only
// (see prepareReasonsPerList); colours, order and the "other" bucket are decided there.
import { Bar, BarChart, CartesianGrid, LabelList, Rectangle, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '@/lib/audits/format';
import type { ReasonBar, ReasonsPerListData } from '@/lib/findings/chart-data';

const ROW_HEIGHT = 30;

export function ReasonsPerListChart({ data, title }: { data: ReasonsPerListData; title: string }) {
  const byKey = new Map(data.bars.map((bar) => [bar.key, bar]));
  const height = data.bars.length * ROW_HEIGHT + 36;
  return (
    <BarChart
      responsive
      layout="vertical"
      data={data.bars}
      title={title}
      margin={{ top: 4, right: 56, bottom: 4, left: 4 }}
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
        width={250}
        interval={0}
        tickFormatter={(key: string) => byKey.get(key)?.axisLabel ?? key}
        tick={{ fontSize: 12, fill: '#16191f' }}
      />
      <Tooltip
        cursor={{ fill: '#eef0f3' }}
        labelFormatter={(key) => byKey.get(String(key))?.axisLabel ?? String(key)}
        formatter={(value) => [formatCount(Number(value)), 'Findings']}
      />
      <Bar
        dataKey="count"
        name="Findings"
        minPointSize={2}
        isAnimationActive={false}
        shape={(props) => {
          const bar = props.payload as ReasonBar | undefined;
          return <Rectangle {...props} fill={bar?.colour ?? '#9ca3af'} />;
        }}
      >
        <LabelList
          dataKey="count"
          position="right"
          formatter={(value) => formatCount(Number(value))}
          style={{ fontSize: 12, fill: '#3b424d' }}
        />
      </Bar>
    </BarChart>
  );
}
