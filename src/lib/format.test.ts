// One date format on every page, 24-hour, with the zone where it matters: "Nov 25, 2026, 15:49",
// "4:02:48 PM", "25/11/2026" and "15:45" on four pages made readers wonder which time was meant.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatClock, formatDate, formatDateTime, formatTime } from './format';

const AFTERNOON = Date.UTC(2026, 10, 25, 16, 2, 48);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the console’s date format', () => {
  it('writes dates ISO-like and times on a 24-hour clock, the zone on request', () => {
    expect(formatDate(AFTERNOON)).toMatch(/^2026-11-2[56]$/);
    expect(formatDateTime(AFTERNOON)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:48$/);
    expect(formatDateTime(AFTERNOON, { zone: true })).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:48 (UTC|GMT[+-]?[\d:]*)$/,
    );
    expect(formatTime(AFTERNOON)).toMatch(/^\d{2}:\d{2}:48$/);
    expect(formatClock(AFTERNOON)).toMatch(/^\d{2}:\d{2}$/);
    for (const text of [formatDateTime(AFTERNOON), formatTime(AFTERNOON)]) {
      expect(text).not.toMatch(/AM|PM/);
    }
  });

  it('is the only date formatting in the browser code', () => {
    const offenders = ['src/app', 'src/features', 'src/components']
      .flatMap(sourceFiles)
      .filter((path) =>
        /toLocale(Date|Time)?String\(|Intl\.DateTimeFormat|toLocaleString\(/.test(
          readFileSync(path, 'utf8'),
        ),
      );
    expect(offenders).toEqual([]);
  });
});
