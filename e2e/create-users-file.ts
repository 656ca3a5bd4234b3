// Writes the e2e users file before the BFF starts (run by the webServer command of
// playwright.config.ts): live mode refuses to start without console users.
import { hashPassword } from '../src/server/auth/password-hash';
import { writeUsersFile } from '../src/server/auth/users-file';
import type { Role } from '../src/shared/session';
import { E2E_USERS, E2E_USERS_FILE } from './e2e-users';

writeUsersFile(
  E2E_USERS_FILE,
  await Promise.all(
    (Object.entries(E2E_USERS) as Array<[Role, { username: string; password: string }]>).map(
      async ([role, user]) => ({
        username: user.username,
        role,
        passwordHash: await hashPassword(user.password),
      }),
    ),
  ),
);
