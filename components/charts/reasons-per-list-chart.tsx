'use client';
// Horizontal bars: how many findings each reason produced, grouped by list. Renders prepared data only
// (see prepareReasonsPerList); colours, order and the "other" bucket are decided there. Sized to its
// box: beside a label column when there is room, with each label above its bar when narrow (a phone).
// The drawing is hidden from screen readers and is no Tab stop; a hidden table says the same.
import { Bar, LabelList, Rectangle } from 'recharts';
import { formatCount } from '@/lib/core/format';
import type { ReasonBar, ReasonsPerListData } from '@/lib/findings/chart-data';
import { ChartTable } from './chart-table';
import { HorizontalBars, LabelAbove } from './horizontal-bars';

export function ReasonsPerListChart({ data, title }: { data: ReasonsPerListData; title: string }) {
  const byKey = new Map(data.bars.map((bar) => [bar.key, bar]));
  const label = (key: unknown) => byKey.get(String(key))?.axisLabel ?? String(key);
  return (
    <>
      <HorizontalBars
        rows={data.bars}
        title={title}
        labelWidth={250}
        rightMargin={56}
        extraHeight={[36, 36]}
        label={label}
        tooltip={{ labelFormatter: label, formatter: (value) => [formatCount(Number(value)), 'Findings'] }}
      >
        {({ narrow }) => (
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
            {narrow ? <LabelAbove label={label} x={null} /> : null}
          </Bar>
        )}
      </HorizontalBars>
      <ChartTable
        caption={title}
        columns={['Reason', 'Findings']}
        rows={data.bars.map((bar) => ({ key: bar.key, cells: [bar.axisLabel, formatCount(bar.count)] }))}
      />
    </>
  );
}
