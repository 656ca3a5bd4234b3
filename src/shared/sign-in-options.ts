// What the sign-in page offers: single sign-on through the organisation's identity provider
// (`GET /auth/options`, docs/identity.md) and whether the password form is there.
import * as z from 'zod/mini';

export const SignInOptionsSchema = z.object({
  /** The identity provider's button, "Sign in with <name>"; null without single sign-on. */
  provider: z.nullable(z.object({ name: z.string() })),
  /** Whether local users may sign in with a password (LOCAL_SIGN_IN). */
  localSignIn: z.boolean(),
});
export type SignInOptions = z.infer<typeof SignInOptionsSchema>;
