import "@mantine/charts/styles.css";
import { LineChart } from "@mantine/charts";
import { Box, VisuallyHidden } from "@mantine/core";
import { useMemo, useRef } from "react";
import { useNearViewport } from "./near-viewport";

export interface TrendSeries {
  /** Key of the value in each data row. */
  name: string;
  label: string;
  color: string;
  dashed?: boolean;
}

interface Props {
  /** Rows keyed by `xKey` plus one numeric (or null) value per series. */
  data: Array<Record<string, string | number | null>>;
  xKey: string;
  series: TrendSeries[];
  /** Short text alternative for screen readers (the chart itself is hidden from them). */
  summary: string;
  height?: number;
  /** The y-axis range and its ticks (percent); 0-100 % when not given. */
  axis?: { domain: [number, number]; ticks: number[] } | undefined;
}

const FULL_AXIS = { domain: [0, 100] as [number, number], ticks: [0, 20, 40, 60, 80, 100] };

/** Percentage line chart; the axis is the caller's (fitted to the data) or 0-100 %. */
export function TrendChart({ data, xKey, series, summary, height = 300, axis = FULL_AXIS }: Props) {
  const figure = useRef<HTMLElement>(null);
  const near = useNearViewport(figure);
  const lines = useMemo(
    () => series.map((s) => ({ name: s.name, label: s.label, color: s.color, strokeDasharray: s.dashed ? "6 4" : undefined })),
    [series],
  );
  return (
    <Box component="figure" m={0} data-testid="trend-chart" ref={figure}>
      {/* Until it is drawn, the chart's box keeps its height: the page does not jump. */}
      <Box aria-hidden="true" mih={height}>
        {near ? <Chart data={data} xKey={xKey} lines={lines} height={height} axis={axis} /> : null}
      </Box>
      <VisuallyHidden component="figcaption">{summary}</VisuallyHidden>
    </Box>
  );
}

interface ChartProps {
  data: Props["data"];
  xKey: string;
  lines: Array<{ name: string; label: string; color: string; strokeDasharray: string | undefined }>;
  height: number;
  axis: NonNullable<Props["axis"]>;
}

function Chart({ data, xKey, lines, height, axis }: ChartProps) {
  return (
    <LineChart
      h={height}
      data={data}
      dataKey={xKey}
      series={lines}
      yAxisProps={{ domain: axis.domain, ticks: axis.ticks, width: 48, interval: 0, allowDataOverflow: true }}
      unit="%"
      withLegend
      legendProps={{ verticalAlign: "bottom", height: 40 }}
      connectNulls
      curveType="linear"
      strokeWidth={2.5}
      tooltipAnimationDuration={150}
      // Recharts' keyboard layer makes the svg focusable, inside a wrapper hidden from screen readers.
      // The top margin leaves room above the top gridline, so its label sits on the line, not clipped.
      lineChartProps={{ accessibilityLayer: false, margin: { top: 12, right: 16, left: 0, bottom: 0 } }}
    />
  );
}
