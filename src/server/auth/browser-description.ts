// A short description of a browser for the sessions page ("Firefox on Windows"), from its
// User-Agent. Only the browser's family and the operating system are kept: the full header,
// with its versions and device model, would help fingerprint a person and is never stored.

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/\bHeadlessChrome\//, 'Chromium'],
  [/\b(Chrome|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** The longest description made; a script's product name is cut to fit. */
const MAX_LENGTH = 40;

/**
 * "Chromium on Linux", "Safari on iOS"; for a client that is no known browser, its product name
 * without version ("curl"); `undefined` without a header.
 */
export function browserDescription(userAgent: string | undefined): string | undefined {
  const header = userAgent?.trim();
  if (!header) return undefined;
  const browser = BROWSERS.find(([pattern]) => pattern.test(header))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(header))?.[1];
  if (browser) return system ? `${browser} on ${system}` : browser;
  const product = /^[A-Za-z][A-Za-z0-9._-]*/.exec(header)?.[0];
  return (product ?? 'Unknown client').slice(0, MAX_LENGTH);
}
