// One way to write a wait everywhere in the console (banner, pages, buttons): "0:42", "59:24",
// "1:00:00", so the same block never reads as "3564 s" in one place and "59:24" in another.
import { counted } from '../../shared/counted';

/** "0:42", "12:00", "1:00:00": a countdown that reads at a glance; negative counts as 0. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const hours = Math.floor(s / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** The same wait in words, for screen readers and titles: "59 minutes 24 seconds". */
export function describeCountdown(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const parts: string[] = [];
  const hours = Math.floor(s / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  const rest = s % 60;
  if (hours > 0) parts.push(counted(hours, 'hour'));
  if (minutes > 0) parts.push(counted(minutes, 'minute'));
  if (rest > 0 || parts.length === 0) parts.push(counted(rest, 'second'));
  return parts.join(' ');
}
