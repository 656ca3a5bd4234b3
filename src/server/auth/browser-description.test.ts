// The sessions page's browser descriptions: short, recognisable, and never the raw header.
import { describe, expect, it } from 'vitest';
import { browserDescription } from './browser-description';

describe('browserDescription', () => {
  it.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'Chromium on Linux',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
      'Safari on macOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    ['curl/8.5.0', 'curl'],
    ['<script>', 'Unknown client'],
  ])('%s → %s', (header, expected) => {
    expect(browserDescription(header)).toBe(expected);
  });

  it('says nothing without a header, and stays short for a long one', () => {
    expect(browserDescription(undefined)).toBeUndefined();
    expect(browserDescription('  ')).toBeUndefined();
    expect(browserDescription(`x${'y'.repeat(500)}`)?.length).toBeLessThanOrEqual(40);
  });
});
