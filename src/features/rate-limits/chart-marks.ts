// What the request-rate chart says at the cursor, and where its incident labels go: incidents a few
// pixels apart (a burst of 429s, often at the right edge, "now") share one label with their count
// instead of piling up, and no label runs past the plot's edges.
import { formatCount, formatTime } from '../../lib/format';

/** The read-out at the cursor: "16:05:00 GMT+1 · 12 requests a minute sent, 3 held back". */
export function describeReadout(timeMs: number, sent: number, held: number): string {
  const rate = `${formatCount(sent)} ${sent === 1 ? 'request' : 'requests'} a minute sent`;
  return `${formatTime(timeMs)} · ${rate}, ${formatCount(held)} held back by the console`;
}

/** One label over the marks of one or more incidents. */
export interface MarkLabel {
  /** Where the label's left edge goes, inside [left, right - width]. */
  readonly x: number;
  /** Incidents under it. */
  readonly count: number;
}

/**
 * Labels for incident marks at `positions` (pixels, any order): marks closer than `minGap` to the
 * first of a group join it; each label is `width` wide and kept within [left, right].
 */
export function labelMarks(
  positions: readonly number[],
  options: { minGap: number; width: number; left: number; right: number },
): MarkLabel[] {
  const { minGap, width, left, right } = options;
  const sorted = [...positions].sort((a, b) => a - b);
  const groups: { start: number; count: number }[] = [];
  for (const x of sorted) {
    const last = groups.at(-1);
    if (last && x - last.start < minGap) last.count += 1;
    else groups.push({ start: x, count: 1 });
  }
  const labels: MarkLabel[] = [];
  for (const group of groups) {
    const wanted = Math.min(Math.max(group.start, left), Math.max(left, right - width));
    // A label pushed left by the edge must not cover the previous one: join it instead.
    const previous = labels.at(-1);
    if (previous && wanted - previous.x < width) {
      labels[labels.length - 1] = { x: previous.x, count: previous.count + group.count };
    } else {
      labels.push({ x: wanted, count: group.count });
    }
  }
  return labels;
}
