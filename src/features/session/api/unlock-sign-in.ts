// An admin lifts a user's sign-in lockout (DELETE /api/sign-in-locks/:username).
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { SignInUnlockSchema } from '../../../shared/session';

export function useUnlockSignIn() {
  return useMutation({
    mutationFn: (username: string) =>
      apiRequest(`/api/sign-in-locks/${encodeURIComponent(username)}`, SignInUnlockSchema, {
        method: 'DELETE',
      }),
  });
}
