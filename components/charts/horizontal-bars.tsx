'use client';
// The frame both findings charts share: horizontal bars sized to their box, a category per row, a label column
// when there is room and each label above its bar when narrow (a phone). The drawing is hidden from screen
// readers and is no Tab stop (Recharts' accessibilityLayer off); each chart puts a hidden table beside it.
import type { ReactNode } from 'react';
import { BarChart, CartesianGrid, LabelList, Tooltip, type TooltipProps, XAxis, YAxis } from 'recharts';
import type { NameType, ValueType } from 'recharts/types/component/DefaultTooltipContent';
import { formatCount } from '@/lib/core/format';
import { NARROW_CHART, useWidth } from './use-width';

const ROW_HEIGHT = 30;
const NARROW_ROW_HEIGHT = 42;

export interface BarsLayout {
  narrow: boolean;
  /** The row's label, as the axis (or, when narrow, the text above its bar) shows it. */
  label: (key: unknown) => string;
}

/** The label above its bar, for a narrow chart: put it in the last Bar of a row. `x` null: the bar's own x. */
export function LabelAbove({ label, x }: { label: (key: unknown) => string; x: number | null }) {
  return (
    <LabelList
      dataKey="key"
      content={(props) => (
        <text x={x ?? Number(props.x)} y={Number(props.y) - 5} fontSize={12} fill="#16191f">
          {label(props.value)}
        </text>
      )}
    />
  );
}

export function HorizontalBars<Row extends { key: string }>({
  rows,
  title,
  labelWidth,
  rightMargin,
  extraHeight,
  label,
  tooltip,
  children,
}: {
  rows: Row[];
  title: string;
  /** The label column's width when there is room. */
  labelWidth: number;
  rightMargin: number;
  /** Room for the axis (and a legend): [wide, narrow]. */
  extraHeight: [number, number];
  label: (key: unknown, narrow: boolean) => string;
  tooltip: Pick<TooltipProps<ValueType, NameType>, 'labelFormatter' | 'formatter'>;
  /** The bars (and legend), given the layout chosen for the box's width. */
  children: (layout: BarsLayout) => ReactNode;
}) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const narrow = width !== null && width < NARROW_CHART;
  const rowLabel = (key: unknown) => label(key, narrow);
  const height = rows.length * (narrow ? NARROW_ROW_HEIGHT : ROW_HEIGHT) + extraHeight[narrow ? 1 : 0];
  return (
    <div ref={ref} aria-hidden="true" style={{ width: '100%', minHeight: height }}>
      {width === null ? null : (
        // Sized from the one measurement above, not Recharts' own `responsive` observer as well: the height
        // follows the width (narrow rows are taller), and the two observers took several frames to agree,
        // drawing the old size's viewBox in the new box meanwhile (chart.module.css, .chart .recharts-surface).
        <BarChart
          accessibilityLayer={false}
          layout="vertical"
          data={rows}
          title={title}
          barCategoryGap={narrow ? '38%' : '10%'}
          margin={{ top: narrow ? 16 : 4, right: rightMargin, bottom: 4, left: 4 }}
          width={Math.floor(width)}
          height={height}
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
            width={narrow ? 0 : labelWidth}
            hide={narrow}
            interval={0}
            tickFormatter={rowLabel}
            tick={{ fontSize: 12, fill: '#16191f' }}
          />
          <Tooltip cursor={{ fill: '#eef0f3' }} isAnimationActive={false} {...tooltip} />
          {children({ narrow, label: rowLabel })}
        </BarChart>
      )}
    </div>
  );
}
