'use client';
// Horizontal bars: how many findings each reason produced, grouped by list. Renders prepared data only
// (see prepareReasonsPerList); colours, order and the "other" bucket are decided there. Sized to its
// box: beside a label column when there is room, with each label above its bar when narrow (a phone).
// The drawing is hidden from screen readers and is no Tab stop; a hidden table says the same.
import { Bar, BarChart, CartesianGrid, LabelList, Rectangle, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '@/lib/audits/format';
import type { ReasonBar, ReasonsPerListData } from '@/lib/findings/chart-data';
import { ChartTable } from './chart-table';
import { NARROW_CHART, useWidth } from './use-width';

const ROW_HEIGHT = 30;
const NARROW_ROW_HEIGHT = 42;

export function ReasonsPerListChart({ data, title }: { data: ReasonsPerListData; title: string }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const narrow = width !== null && width < NARROW_CHART;
  const byKey = new Map(data.bars.map((bar) => [bar.key, bar]));
  const label = (key: unknown) => byKey.get(String(key))?.axisLabel ?? String(key);
  const height = data.bars.length * (narrow ? NARROW_ROW_HEIGHT : ROW_HEIGHT) + 36;
  return (
    <>
      <div ref={ref} aria-hidden="true" style={{ width: '100%', minHeight: height }}>
        {width === null ? null : (
          <BarChart
            responsive
            accessibilityLayer={false}
            layout="vertical"
            data={data.bars}
            title={title}
            barCategoryGap={narrow ? '38%' : '10%'}
            margin={{ top: narrow ? 16 : 4, right: 56, bottom: 4, left: 4 }}
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
              width={narrow ? 0 : 250}
              hide={narrow}
              interval={0}
              tickFormatter={label}
              tick={{ fontSize: 12, fill: '#16191f' }}
            />
            <Tooltip
              cursor={{ fill: '#eef0f3' }}
              isAnimationActive={false}
              labelFormatter={label}
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
              {narrow ? (
                <LabelList
                  dataKey="key"
                  content={(props) => (
                    <text x={Number(props.x)} y={Number(props.y) - 5} fontSize={12} fill="#16191f">
                      {label(props.value)}
                    </text>
                  )}
                />
              ) : null}
            </Bar>
          </BarChart>
        )}
      </div>
      <ChartTable
        caption={title}
        columns={['Reason', 'Findings']}
        rows={data.bars.map((bar) => ({ key: bar.key, cells: [bar.axisLabel, formatCount(bar.count)] }))}
      />
    </>
  );
}
