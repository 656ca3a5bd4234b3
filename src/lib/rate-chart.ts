// What the console's two rate charts (the rate-limit timeline, the what-if replay) share: the
// palette read from the page's CSS variables, and one frame: an asinh y axis in requests per
// minute with a line per decade, no built-in legend (each page draws its own key) and a cursor
// that does not zoom.
import type uPlot from 'uplot';
import { formatCount, formatZone } from './format';

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** The colours of the page's theme, for the canvas. */
export function chartPalette() {
  return {
    accent: cssVar('--color-accent', '#1f4fd1'),
    warning: cssVar('--color-warning', '#8a5300'),
    danger: cssVar('--color-danger', '#b42318'),
    muted: cssVar('--color-text-muted', '#58606b'),
    grid: cssVar('--color-border', '#d9dde3'),
  };
}

/**
 * Scales, axes, legend and cursor of a requests-per-minute chart; `timeLabel` labels the x axis,
 * its ticks at least `timeSpace` CSS pixels apart (wider labels need more).
 */
export function rateChartFrame(
  palette: ReturnType<typeof chartPalette>,
  timeLabel: (seconds: number) => string,
  timeSpace = 50,
): Pick<uPlot.Options, 'scales' | 'axes' | 'legend' | 'cursor'> {
  const axis = {
    stroke: palette.muted,
    grid: { stroke: palette.grid, width: 1 },
    ticks: { stroke: palette.grid },
  };
  return {
    // asinh: linear near zero, logarithmic further up, so ten requests and a 20,000 limit are
    // both readable on one axis.
    scales: { y: { distr: 4, asinh: 1, range: (_u, _min, max) => [0, Math.max(max, 10) * 1.5] } },
    axes: [
      {
        ...axis,
        space: timeSpace,
        values: (_u, values) => values.map(timeLabel),
        // The ticks are bare clock times (lib/format.ts): the axis names their zone once.
        label: `time (${formatZone(Date.now())})`,
        labelSize: 18,
      },
      {
        ...axis,
        size: 56,
        // Decades only: asinh's default splits draw a dozen faint lines per decade.
        splits: (u) => {
          const max = u.scales.y?.max ?? 10;
          return [0, 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000].filter((v) => v <= max);
        },
        label: 'requests per minute',
        labelSize: 18,
        values: (_u, values) => values.map((value) => (value >= 1 ? formatCount(value) : '')),
      },
    ],
    // The page draws its own key.
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
  };
}
