// What a 401 means depends on who was there: nobody (a first visit or a shared link: no "session
// ended" notice), a person whose idle time ran out (a polling page meets the server's expiry
// before its own timer: "inactivity"), or a session ended elsewhere.
import { describe, expect, it } from 'vitest';
import { sessionExtendedAt } from '../../lib/api-client';
import { reasonForUnauthorised } from './use-signed-out-handler';

const admin = {
  username: 'admin',
  role: 'admin' as const,
  roles: { default: 'admin' as const },
  idleSeconds: 900,
};

describe('reasonForUnauthorised', () => {
  it('records nothing when nobody was signed in', () => {
    expect(reasonForUnauthorised(undefined, Date.now())).toBeUndefined();
    expect(reasonForUnauthorised(null, Date.now())).toBeUndefined();
  });

  it('says inactivity once the idle time has run out, "ended" before', () => {
    const extended = sessionExtendedAt();
    expect(reasonForUnauthorised(admin, extended + 900_000)).toBe('idle');
    expect(reasonForUnauthorised(admin, extended + 898_000)).toBe('idle');
    expect(reasonForUnauthorised(admin, extended + 60_000)).toBe('ended');
    expect(reasonForUnauthorised({ ...admin, idleSeconds: 0 }, extended + 900_000)).toBe('ended');
  });
});
