// The pages a browser sees when a return from the identity provider gives no session: why, in
// plain words, and what to do next. Plain server-rendered HTML in the look of the problem pages
// (their stylesheet), since the browser arrives here by navigation, not from the SPA.
import type { SignInRefusal } from './oidc-sign-in';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** What the page of one refusal says. */
export interface RefusalPage {
  readonly status: 400 | 403 | 502;
  readonly title: string;
  readonly html: string;
}

export interface RefusalPageContext {
  /** OIDC_DISPLAY_NAME. */
  readonly providerName: string;
  /** Whether the password form is there to fall back on (LOCAL_SIGN_IN). */
  readonly localSignIn: boolean;
  /** Whom to ask for access (OIDC_ACCESS_CONTACT). */
  readonly accessContact: string;
}

function page(title: string, paragraphs: readonly string[], links: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Privacy API Console</title><link rel="stylesheet" href="/problems/problems.css"></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n')}
<p>${links}</p>
</main>
</body>
</html>
`;
}

/** The page for `refusal`. */
export function refusalPage(refusal: SignInRefusal, context: RefusalPageContext): RefusalPage {
  const provider = context.providerName;
  const again = `<a href="/auth/sign-in">Sign in with ${escapeHtml(provider)} again</a>`;
  const signInPage = '<a href="/sign-in">Back to the sign-in page</a>';
  const build = (
    status: RefusalPage['status'],
    title: string,
    paragraphs: string[],
    links: string,
  ) => ({
    status,
    title,
    html: page(title, paragraphs, links),
  });
  switch (refusal.kind) {
    case 'unreachable':
      return build(
        502,
        'The identity provider cannot be reached',
        [
          `The console could not reach ${provider}, so signing in with it is not possible right now. The operator has been told (the console's readiness check names the provider).`,
          context.localSignIn
            ? 'Console accounts with a password can still sign in on the sign-in page.'
            : 'Try again in a few minutes.',
        ],
        `${again} · ${signInPage}`,
      );
    case 'no-transaction':
      return build(
        400,
        'This sign-in can no longer be completed',
        [
          'The console has no record of sending you to sign in, or it was more than ten minutes ago, or you started another sign-in since (in another tab). Nothing was signed in.',
        ],
        again,
      );
    case 'provider-error':
      return build(
        refusal.error === 'access_denied' ? 403 : 400,
        `${provider} did not sign you in`,
        [
          `The identity provider answered "${refusal.error}"${refusal.detail ? `: ${refusal.detail}` : ''}.`,
          refusal.error === 'invalid_grant'
            ? 'The sign-in code was refused: it was already used, has expired, or does not belong to this sign-in. Nothing was signed in.'
            : 'Nothing was signed in.',
        ],
        `${again} · ${signInPage}`,
      );
    case 'invalid-response':
      return build(
        400,
        'The identity provider’s answer was refused',
        [
          `The console checks every answer of the identity provider, and this one failed a check: ${refusal.detail}. Nothing was signed in.`,
          'If it happens again, tell the console operator: the provider’s or the console’s settings may be wrong, or someone tampered with the sign-in.',
        ],
        `${again} · ${signInPage}`,
      );
    case 'mfa-required':
      return build(
        403,
        'Sign in with a second factor',
        [
          `This console requires a second factor (such as an authenticator app or a security key), and ${provider} says you signed in without one. Nothing was signed in.`,
          `Sign in again with your second factor; if ${provider} does not ask for one, ask ${context.accessContact} to set it up.`,
        ],
        again,
      );
    case 'no-access':
      return build(
        403,
        'You have no access to this console',
        [
          `${refusal.name ? `${refusal.name}, you` : 'You'} signed in with ${provider}, but you are in none of the groups that give access to the Privacy API Console. No session was started.`,
          `To get access, ask ${context.accessContact} to add you to the right group.`,
        ],
        signInPage,
      );
  }
}
