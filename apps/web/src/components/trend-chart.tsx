import "@mantine/charts/styles.css";
import { LineChart } from "@mantine/charts";
import { Box, VisuallyHidden } from "@mantine/core";

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
}

/** Percentage line chart on a fixed 0-100 % axis. */
export function TrendChart({ data, xKey, series, summary, height = 300 }: Props) {
  return (
    <Box component="figure" m={0} data-testid="trend-chart">
      <Box aria-hidden="true">
        <LineChart
          h={height}
          data={data}
          dataKey={xKey}
          series={series.map((s) => ({
            name: s.name,
            label: s.label,
            color: s.color,
            strokeDasharray: s.dashed ? "6 4" : undefined,
          }))}
          yAxisProps={{ domain: [0, 100], ticks: [0, 20, 40, 60, 80, 100], width: 48 }}
          unit="%"
          withLegend
          legendProps={{ verticalAlign: "bottom", height: 40 }}
          connectNulls
          curveType="linear"
          strokeWidth={2.5}
          tooltipAnimationDuration={150}
          // Recharts' keyboard layer makes the svg focusable, inside a wrapper hidden from screen readers.
          lineChartProps={{ accessibilityLayer: false }}
        />
      </Box>
      <VisuallyHidden component="figcaption">{summary}</VisuallyHidden>
    </Box>
  );
}
