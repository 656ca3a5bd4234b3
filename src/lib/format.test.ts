// One date format on every page, 24-hour, in the reader's zone and labelled with it: "Nov 25, 2026,
// 15:49", "4:02:48 PM", "25/11/2026" and an unlabelled "15:45" beside a UTC verdict made readers
// wonder which time was meant.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
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
  it('writes dates ISO-like and times on a 24-hour clock, always with the zone', () => {
    expect(formatDate(AFTERNOON)).toMatch(/^2026-11-2[56]$/);
    expect(formatDateTime(AFTERNOON)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:48 \S+$/);
    expect(formatTime(AFTERNOON)).toMatch(/^\d{2}:\d{2}:48 \S+$/);
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

describe('times in the reader’s zone', () => {
  const original = process.env.TZ;
  afterEach(() => {
    process.env.TZ = original;
    vi.resetModules();
  });

  // The formatters are built once per page load; a fresh module is a fresh page in another zone.
  async function formatIn(zone: string) {
    process.env.TZ = zone;
    vi.resetModules();
    return import('./format');
  }

  it('follows the zone the browser runs in and names it', async () => {
    const berlin = await formatIn('Europe/Berlin');
    expect(berlin.formatDateTime(AFTERNOON)).toBe('2026-11-25 17:02:48 GMT+1');
    expect(berlin.formatTime(AFTERNOON)).toBe('17:02:48 GMT+1');
    expect(berlin.formatZone(AFTERNOON)).toBe('GMT+1');

    const newYork = await formatIn('America/New_York');
    expect(newYork.formatDateTime(AFTERNOON)).toBe('2026-11-25 11:02:48 EST');
    expect(newYork.formatTime(AFTERNOON)).toBe('11:02:48 EST');
  });

  it('says UTC where the browser runs in UTC', async () => {
    const utc = await formatIn('UTC');
    expect(utc.formatTime(AFTERNOON)).toBe('16:02:48 UTC');
  });
});

describe('preparing the time formatter ahead of the first render', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('builds it once when asked, so the first time written builds nothing', async () => {
    vi.resetModules();
    const format = await import('./format');
    let built = 0;
    const Original = Intl.DateTimeFormat;
    const counting = new Proxy(Original, {
      construct(target, args: ConstructorParameters<typeof Original>) {
        built += 1;
        return new target(...args);
      },
    });
    const intl = Intl as { DateTimeFormat: typeof Original };
    intl.DateTimeFormat = counting;
    onTestFinished(() => {
      intl.DateTimeFormat = Original;
    });
    format.prepareTimeFormat();
    expect(built).toBe(1);
    expect(format.formatTime(AFTERNOON)).toMatch(/^\d\d:02:48 /);
    format.prepareTimeFormat();
    expect(built).toBe(1);
  });
});
