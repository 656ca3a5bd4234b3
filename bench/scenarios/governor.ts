// Scenario 4, governor precision: 3,000 requests at one 1,000-per-minute rule, through the whole
// console against the mock enforcing the same rule, on one injected clock (no real minutes pass).
// Reported: the most requests the upstream received in any 60 s, and the 429s the console drew.
import { busiestSpan, runPrecision } from '../../src/server/test-support/governor-precision';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

export async function governorScenario(ctx: BenchContext): Promise<Figure[]> {
  const count = ctx.smoke ? 300 : 3_000;
  // 25 a second from mid-minute, crossing the upstream's fixed windows; then bunched half just
  // before and half just after a window turns, where a fixed window would let 2,000 through.
  const spread = await runPrecision(count, (i) => T0 + 30_000 + i * 40, T0);
  const bunched = await runPrecision(count, (i) => (i < count / 2 ? T0 + 59_900 : T0 + 60_050), T0);
  const busiest = [busiestSpan(spread.reached, 60_000), busiestSpan(bunched.reached, 60_000)];
  ctx.log(`  governor: busiest 60 s ${busiest[0]} (spread), ${busiest[1]} (bunched)`);
  const s = `Governor precision (${count.toLocaleString('en-US')} requests, 1,000/min rule)`;
  return [
    figure(
      s,
      'most requests upstream in any 60 s, spread over 2 minutes',
      busiest[0] ?? 0,
      'requests',
      {
        op: '<=',
        value: 1_000,
      },
    ),
    figure(
      s,
      'most requests upstream in any 60 s, bunched at a window edge',
      busiest[1] ?? 0,
      'requests',
      {
        op: '<=',
        value: 1_000,
      },
    ),
    figure(
      s,
      'upstream 429s drawn by the console',
      spread.mock.refused + bunched.mock.refused,
      '429s',
      {
        op: '==',
        value: 0,
      },
    ),
  ];
}
