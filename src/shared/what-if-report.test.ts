// The what-if's baseline note, as the page and both exports say it: the recorded 429s named by
// their operation (the path only for a call the console knows no name for), and what the replay
// under the policy in force leaves out.
import { describe, expect, it } from 'vitest';
import { baselineNote } from './what-if-report';

const inForce = { refused: 0 } as Parameters<typeof baselineNote>[0]['inForce'];

describe('baselineNote', () => {
  it('names the operations the platform answered 429 to, and says what the replay leaves out', () => {
    const note = baselineNote({
      inForce,
      recorded429s: {
        total: 3,
        byEndpoint: [
          { endpoint: 'GET /api/audit/v4/audits/event-types', throttled: 2 },
          { endpoint: 'GET /api/unknown/thing', throttled: 1 },
        ],
      },
    } as Parameters<typeof baselineNote>[0]);
    expect(note).toContain(
      'The platform answered 3 429s in this period (Event types ×2, GET /api/unknown/thing ×1)',
    );
    expect(note).not.toContain('/api/audit/v4/audits/event-types');
    expect(note).toContain('refuses none of the recorded requests');
    expect(note).toContain('a block the platform imposed for traffic it never saw');
  });

  it('says no 429 was answered when none was', () => {
    expect(
      baselineNote({ inForce, recorded429s: { total: 0, byEndpoint: [] } } as Parameters<
        typeof baselineNote
      >[0]),
    ).toBe(
      'The platform answered no 429 in this period, as the console and the reporting integrations recorded it.',
    );
  });
});
