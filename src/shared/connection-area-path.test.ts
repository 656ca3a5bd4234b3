// A request under a connection follows the rules written for its area's path: the live stream of
// UAT is exempt from the CSRF header as production's is, since EventSource cannot send it.
import { describe, expect, it } from 'vitest';
import { areaPathOf } from './connections';

describe('areaPathOf', () => {
  it('strips the connection from a connection’s path and leaves others alone', () => {
    expect(areaPathOf('/api/connections/uat/rate-limits/stream')).toBe('/api/rate-limits/stream');
    expect(areaPathOf('/api/rate-limits/stream')).toBe('/api/rate-limits/stream');
    expect(areaPathOf('/api/connections')).toBe('/api/connections');
  });
});
