// The console's request rate over the last hour against the account's minute limit, with each 429
// incident marked and its block shaded (uPlot: small, fast, canvas; its stylesheet is a file, as
// the CSP allows no inline <style>), a read-out of the rates at the cursor as text, and one label
// per burst of incidents. Loaded on demand with the page.
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Incident, Timeline } from '../../../shared/incident';
import { describeReadout, labelMarks } from '../chart-marks';
import { formatClock } from '../../../lib/format';
import { chartPalette, rateChartFrame } from '../../../lib/rate-chart';

export interface RequestTimelineChartProps {
  timeline: Timeline;
  /** The account minute limit, drawn as a line. */
  minuteLimit: number;
  incidents: readonly Incident[];
  /** Add to a server time to get this browser's time. */
  offsetMs: number;
}

const HEIGHT = 240;
/** CSS pixels: an incident label's width, and the gap under which marks share one label. */
const LABEL_WIDTH = 52;
const LABEL_GAP = 10;
/** Buckets summed for the "per minute" rate at each point. */
const PER_MINUTE_BUCKETS = (timeline: Timeline) => Math.round(60 / timeline.bucketSeconds);

/** Rolling per-minute sums: the requests of the minute before each bucket's end. */
function perMinute(values: readonly number[], window: number): number[] {
  const out: number[] = [];
  let sum = 0;
  values.forEach((value, index) => {
    sum += value;
    if (index >= window) sum -= values[index - window] ?? 0;
    out.push(sum);
  });
  return out;
}

function chartData(timeline: Timeline, minuteLimit: number, offsetMs: number): uPlot.AlignedData {
  const start = (Date.parse(timeline.start) + offsetMs) / 1_000;
  const window = PER_MINUTE_BUCKETS(timeline);
  const xs = timeline.sent.map((_, index) => start + (index + 1) * timeline.bucketSeconds);
  return [
    xs,
    perMinute(timeline.sent, window),
    perMinute(timeline.refused, window),
    xs.map(() => minuteLimit),
  ];
}

/** A canvas chart sized to its container. */
export function RequestTimelineChart({
  timeline,
  minuteLimit,
  incidents,
  offsetMs,
}: RequestTimelineChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const marks = useRef<{ incidents: readonly Incident[]; offsetMs: number }>({
    incidents,
    offsetMs,
  });

  const [readout, setReadout] = useState<string | null>(null);

  useEffect(() => {
    marks.current = { incidents, offsetMs };
    chart.current?.redraw(false);
  }, [incidents, offsetMs]);

  // Created once; later data arrives through setData below.
  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const palette = chartPalette();
    const { accent, warning, danger } = palette;
    const options: uPlot.Options = {
      width: Math.max(280, element.clientWidth),
      height: HEIGHT,
      series: [
        {},
        { label: 'Sent upstream', stroke: accent, width: 2, fill: 'rgba(31, 79, 209, 0.08)' },
        { label: 'Held back by the console', stroke: warning, width: 2 },
        {
          label: 'Account minute limit',
          stroke: danger,
          width: 1.5,
          dash: [6, 4],
          points: { show: false },
        },
      ],
      ...rateChartFrame(palette, (seconds) => formatClock(seconds * 1_000)),
      hooks: {
        setCursor: [
          (u) => {
            const index = u.cursor.idx;
            const time = index == null ? undefined : u.data[0][index];
            if (index == null || time === undefined) {
              setReadout(null);
              return;
            }
            const sent = u.data[1]?.[index] ?? 0;
            const held = u.data[2]?.[index] ?? 0;
            setReadout(describeReadout(time * 1_000, sent, held));
          },
        ],
        draw: [
          (u) => {
            const { ctx, bbox } = u;
            const [xMin, xMax] = [u.scales.x?.min ?? 0, u.scales.x?.max ?? 0];
            ctx.save();
            // Series drawing leaves its dash pattern on the context.
            ctx.setLineDash([]);
            const starts: number[] = [];
            for (const incident of marks.current.incidents) {
              const first = (Date.parse(incident.firstSeen) + marks.current.offsetMs) / 1_000;
              const until = (Date.parse(incident.blockedUntil) + marks.current.offsetMs) / 1_000;
              if (until < xMin || first > xMax) continue;
              const x0 = u.valToPos(Math.max(first, xMin), 'x', true);
              const x1 = u.valToPos(Math.min(until, xMax), 'x', true);
              ctx.fillStyle = 'rgba(180, 35, 24, 0.10)';
              ctx.fillRect(x0, bbox.top, Math.max(1, x1 - x0), bbox.height);
              if (first >= xMin) {
                ctx.strokeStyle = danger;
                ctx.lineWidth = 2 * uPlot.pxRatio;
                ctx.beginPath();
                ctx.moveTo(x0, bbox.top);
                ctx.lineTo(x0, bbox.top + bbox.height);
                ctx.stroke();
                starts.push(x0);
              }
            }
            // One label per burst ("429 ×3"), kept inside the plot: a burst at "now" would
            // otherwise pile its labels up against the right edge.
            const ratio = uPlot.pxRatio;
            const width = LABEL_WIDTH * ratio;
            const height = 16 * ratio;
            ctx.font = `600 ${11 * ratio}px system-ui, sans-serif`;
            ctx.textAlign = 'left';
            ctx.textBaseline = 'middle';
            for (const label of labelMarks(starts, {
              minGap: LABEL_GAP * ratio,
              width,
              left: bbox.left,
              right: bbox.left + bbox.width,
            })) {
              ctx.fillStyle = danger;
              ctx.fillRect(label.x, bbox.top, width, height);
              ctx.fillStyle = '#ffffff';
              const text = label.count > 1 ? `429 ×${label.count}` : '429';
              ctx.fillText(text, label.x + 4 * ratio, bbox.top + height / 2, width - 8 * ratio);
            }
            ctx.restore();
          },
        ],
      },
    };
    const plot = new uPlot(options, chartData(timeline, minuteLimit, offsetMs), element);
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
    // Created once per mount; the effect below feeds new data.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    chart.current?.setData(chartData(timeline, minuteLimit, offsetMs));
  }, [timeline, minuteLimit, offsetMs]);

  return (
    <>
      <div ref={container} className="request-timeline-chart" aria-hidden="true" />
      {/* Text, not a canvas tooltip: screen readers and zoomed views read it too. */}
      <p className="chart-readout muted">
        {readout ?? 'Point at the chart to read the rates at that moment.'}
      </p>
    </>
  );
}

export default RequestTimelineChart;
