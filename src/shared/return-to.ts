// Where to go after signing in (the sign-in page, and the BFF's /auth/sign-in). The target comes
// from the URL, which anyone can craft, so only a path of this console is accepted: never another
// site (open redirect), never the sign-in page.

/** The SPA's sign-in page. */
export const SIGN_IN_PATH = '/sign-in';
const BASE = 'https://console.invalid';

/**
 * `value` when it is a path of this console (starts with a single `/`, not `//` or `/\`, no
 * control characters, which browsers strip and so could turn `/\t/x` into `//x`); otherwise
 * `fallback`.
 */
export function safeReturnTo(value: string | null | undefined, fallback = '/'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return fallback;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE || url.pathname === SIGN_IN_PATH) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
