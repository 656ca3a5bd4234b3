// A whole-second countdown to a moment, for "try again in N s" messages.
import { useEffect, useState } from 'react';

function secondsUntil(deadline: number): number {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

/**
 * Seconds left until `deadline` (epoch milliseconds), re-rendering once a second and stopping at 0.
 * Computed from the clock rather than decremented, so a throttled background tab stays accurate.
 * Give the calling component a `key` per deadline so a new deadline starts from a fresh clock read.
 */
export function useCountdown(deadline: number): number {
  const [now, setNow] = useState(() => Date.now());
  const remaining = Math.max(0, Math.ceil((deadline - now) / 1000));

  useEffect(() => {
    if (secondsUntil(deadline) === 0) return undefined;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= deadline) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline]);

  return remaining;
}
