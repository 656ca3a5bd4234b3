// After "End all blocks" the hour gauge showed "200,001 of 200,000" with a full red bar and
// "199,719 left" under it, and the chart kept shading the ended block. A block ended early carries
// no platform count any more, and while a platform count stands, "left" is what it leaves.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { withEndedBlocks } from '../ended-early';
import { incident, RULES, T0, usage } from '../test-support/fixtures';
import { HeadroomGauges } from './headroom-gauges';

const seen = new Date(T0).toISOString();
// An account-hour 429: the platform counted 200,001 of 200,000; this console sent 281.
const hourHit = incident({
  ruleId: 'account-hour',
  period: 'HOUR',
  requestsAllowed: 200_000,
  requestsMade: 200_001,
  firstSeen: seen,
  lastSeen: seen,
  blockedUntil: new Date(T0 + 3_600_000).toISOString(),
});

function hourUsage(now: number) {
  const base = usage(now);
  return {
    ...base,
    rules: base.rules.map((limit) =>
      limit.ruleId === 'account-hour'
        ? {
            ...limit,
            used: 281,
            remaining: 199_719,
            resetsAt: new Date(T0 + 3_600_000).toISOString(),
          }
        : limit,
    ),
  };
}

const hourGauge = () => screen.getByRole('meter', { name: /^Account hour limit/ });

describe('HeadroomGauges after blocks end', () => {
  it('shows what the platform’s count leaves while its block runs', () => {
    const now = T0 + 60_000;
    render(
      <HeadroomGauges
        usage={hourUsage(now)}
        rules={RULES.rules}
        offsetMs={0}
        incidents={withEndedBlocks([hourHit], { at: now, keys: new Set([hourHit.key]) })}
      />,
    );
    expect(hourGauge()).toHaveAccessibleName(
      /200,001 of 200,000 per hour, as the platform counted/,
    );
    expect(screen.getByText(/^0\s+left/)).toBeInTheDocument();
    expect(screen.queryByText(/199,719/)).toBeNull();
  });

  it('goes back to the console’s own count once the block was ended early', () => {
    const now = T0 + 60_000;
    const rows = withEndedBlocks([hourHit], { at: now, keys: new Set() });
    render(
      <HeadroomGauges usage={hourUsage(now)} rules={RULES.rules} offsetMs={0} incidents={rows} />,
    );
    expect(hourGauge()).toHaveAccessibleName('Account hour limit: 281 of 200,000 per hour');
    expect(hourGauge()).toHaveAttribute('data-level', 'low');
    // The chart shades nothing past the last 429 of an ended block.
    expect(rows[0]?.blockedUntil).toBe(seen);
  });
});
