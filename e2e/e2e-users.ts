// The console users of the end-to-end run, one per role, and where their file and the signed-in
// browser state are kept. Deterministic, so a failing run can be reproduced by hand.
import type { Role } from '../src/shared/session';

export const E2E_USERS: Record<Role, { username: string; password: string }> = {
  admin: { username: 'admin', password: 'e2e-admin-password' },
  auditor: { username: 'auditor', password: 'e2e-auditor-password' },
  support: { username: 'support', password: 'e2e-support-password' },
};

/** The users file the e2e BFF reads (CONSOLE_USERS_FILE); written before it starts. */
export const E2E_USERS_FILE = '.test-results/e2e/users.json';

/** Signs the e2e BFF's session cookies; only for tests. */
export const E2E_SESSION_SECRET = 'e2e-session-secret-not-for-any-real-deployment';

/** Browser state of a signed-in admin, saved by the setup project and used by every spec. */
export const ADMIN_STORAGE_STATE = '.test-results/e2e/admin-storage-state.json';
