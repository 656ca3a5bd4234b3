// The replayed traffic against both policies' minute limits, in the rate-limit timeline's style
// (uPlot on a canvas, an asinh axis so ten requests and a 20,000 limit both read, a text
// read-out at the cursor): each bar of time shows its busiest minute, the busiest endpoint's
// minute, and what each policy would have refused. Loaded on demand with the page.
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatClock, formatCount, formatDate, formatDateTime } from '../../../lib/format';
import { chartPalette, rateChartFrame } from '../../../lib/rate-chart';
import type { PolicySummary, ReplayBucket } from '../../../shared/planning';

export interface ReplayChartProps {
  buckets: readonly ReplayBucket[];
  bucketMinutes: number;
  inForce: PolicySummary;
  chosen: PolicySummary;
}

const HEIGHT = 260;

/** A policy's minute limit of `scope` (account or per endpoint), if it has one. */
export function minuteLimit(policy: PolicySummary, scope: 'account' | 'endpoint'): number | null {
  return (
    policy.limits.find((limit) => limit.scope === scope && limit.period === 'MINUTE')?.limit ?? null
  );
}

function chartData(props: ReplayChartProps): uPlot.AlignedData {
  const xs = props.buckets.map((bucket) => Date.parse(bucket.start) / 1_000);
  const line = (value: number | null) => xs.map(() => value);
  return [
    xs,
    props.buckets.map((bucket) => bucket.peakMinute),
    props.buckets.map((bucket) => bucket.peakEndpointMinute),
    props.buckets.map((bucket) => bucket.refusedChosen),
    props.buckets.map((bucket) => bucket.refusedInForce),
    line(minuteLimit(props.inForce, 'account')),
    line(minuteLimit(props.chosen, 'account')),
    line(minuteLimit(props.chosen, 'endpoint') ?? minuteLimit(props.inForce, 'endpoint')),
  ];
}

export function ReplayChart(props: ReplayChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const [readout, setReadout] = useState<string | null>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const palette = chartPalette();
    const { accent, warning, danger, muted } = palette;
    const limitLine = (label: string, stroke: string, dash: number[]) => ({
      label,
      stroke,
      width: 1.5,
      dash,
      points: { show: false },
    });
    const options: uPlot.Options = {
      width: Math.max(280, element.clientWidth),
      height: HEIGHT,
      series: [
        {},
        {
          label: 'Busiest minute',
          stroke: accent,
          width: 2,
          fill: 'rgba(31, 79, 209, 0.08)',
          points: { show: false },
        },
        { label: 'Busiest endpoint', stroke: muted, width: 1.5, points: { show: false } },
        { label: 'Refused, policy chosen', stroke: danger, width: 2, points: { show: false } },
        {
          label: 'Refused, policy in force',
          stroke: warning,
          width: 2,
          dash: [2, 3],
          points: { show: false },
        },
        limitLine('Account minute limit in force', warning, [6, 4]),
        limitLine('Account minute limit chosen', danger, [6, 4]),
        limitLine('Per-endpoint minute limit', danger, [2, 4]),
      ],
      // A week's ticks name the day and hour ("11-26 06:00"), a day's or an hour's the time.
      ...rateChartFrame(
        palette,
        (seconds) =>
          latest.current.bucketMinutes >= 60
            ? `${formatDate(seconds * 1_000).slice(5)} ${formatClock(seconds * 1_000)}`
            : formatClock(seconds * 1_000),
        90,
      ),
      hooks: {
        setCursor: [
          (u) => {
            const index = u.cursor.idx;
            const bucket = index == null ? undefined : latest.current.buckets[index];
            if (!bucket) {
              setReadout(null);
              return;
            }
            const minutes = latest.current.bucketMinutes;
            setReadout(
              `${formatDateTime(bucket.start)}${minutes > 1 ? ` (${minutes} minutes)` : ''}: busiest minute ${formatCount(bucket.peakMinute)} requests, busiest endpoint ${formatCount(bucket.peakEndpointMinute)}; refused ${formatCount(bucket.refusedChosen)} under the policy chosen, ${formatCount(bucket.refusedInForce)} under the one in force.`,
            );
          },
        ],
      },
    };
    const plot = new uPlot(options, chartData(latest.current), element);
    chart.current = plot;
    const resize = new ResizeObserver(() => {
      plot.setSize({ width: Math.max(280, element.clientWidth), height: HEIGHT });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setData(chartData(props));
  }, [props]);

  return (
    <>
      <div ref={container} className="replay-chart" aria-hidden="true" />
      <p className="chart-readout muted">
        {readout ?? 'Point at the chart to read that stretch of time.'}
      </p>
      <p className="chart-key muted" aria-hidden="true">
        <span data-series="sent">Busiest minute</span>
        <span data-series="endpoint">Busiest endpoint</span>
        <span data-series="chosen">Refused, policy chosen</span>
        <span data-series="refused">Refused, policy in force</span>
        <span data-series="limit">Minute limits (dashed)</span>
      </p>
    </>
  );
}

export default ReplayChart;
