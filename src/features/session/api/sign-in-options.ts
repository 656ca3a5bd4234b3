// What the sign-in page offers (GET /auth/options): the identity provider's button and whether the
// password form is there. Asked without a session; when it cannot be had, the password form shows.
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { SignInOptionsSchema, type SignInOptions } from '../../../shared/sign-in-options';

/** Password form only: what the page shows until (or unless) the options are known. */
const PASSWORD_ONLY: SignInOptions = { provider: null, localSignIn: true };

/** The sign-in options; `PASSWORD_ONLY` while loading or when they cannot be had. */
export function useSignInOptions(): SignInOptions {
  const query = useQuery({
    queryKey: ['sign-in-options'],
    queryFn: ({ signal }) => apiRequest('/auth/options', SignInOptionsSchema, { signal }),
    staleTime: Infinity,
    retry: false,
  });
  return query.data ?? PASSWORD_ONLY;
}
