// The chart's read-out text and its incident labels: a burst of incidents at the right edge shows
// one label with their count, inside the plot, instead of a pile of overlapping marks.
import { describe, expect, it } from 'vitest';
import { describeReadout, labelMarks } from './chart-marks';
import { formatTime } from '../../lib/format';

const BOX = { minGap: 24, width: 24, left: 50, right: 650 };

describe('labelMarks', () => {
  it('gives marks far apart a label each, at their own place', () => {
    expect(labelMarks([300, 100], BOX)).toEqual([
      { x: 100, count: 1 },
      { x: 300, count: 1 },
    ]);
  });

  it('joins a burst into one label with its count', () => {
    expect(labelMarks([400, 410, 405, 500], BOX)).toEqual([
      { x: 400, count: 3 },
      { x: 500, count: 1 },
    ]);
  });

  it('keeps labels at the right edge inside the plot, without overlapping', () => {
    const labels = labelMarks([610, 640, 649, 650], BOX);
    expect(labels).toEqual([{ x: 610, count: 4 }]);
    const edge = labelMarks([700], BOX);
    expect(edge).toEqual([{ x: 626, count: 1 }]);
    // 640 is clear of 610, but its label, pushed back inside, would cover 610's: they share one.
    const nearEdge = labelMarks([610, 640], BOX);
    expect(nearEdge).toEqual([{ x: 610, count: 2 }]);
    for (const label of [...labels, ...edge, ...nearEdge]) {
      expect(label.x + BOX.width).toBeLessThanOrEqual(BOX.right);
    }
  });

  it('keeps a label left of the plot inside it', () => {
    expect(labelMarks([10], BOX)).toEqual([{ x: 50, count: 1 }]);
  });
});

describe('describeReadout', () => {
  it('says the time and the rates at the cursor in words', () => {
    const at = Date.UTC(2026, 0, 6, 9, 5);
    expect(describeReadout(at, 1234, 0)).toBe(
      `${formatTime(at)} · 1,234 requests a minute sent, 0 held back by the console`,
    );
    expect(describeReadout(at, 1, 3)).toContain('1 request a minute sent, 3 held back');
  });
});
