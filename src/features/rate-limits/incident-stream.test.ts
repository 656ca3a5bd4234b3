// The live connection as the page relies on it: live once the server is ready, incidents passed
// on, and a dropped or silent stream reconnected with the last id so nothing is missed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IncidentStream, type StreamSignal } from './incident-stream';
import { FakeEventSource, incident } from './test-support/fixtures';

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('EventSource', FakeEventSource);
  FakeEventSource.instances = [];
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function connect() {
  const stream = new IncidentStream((url) => new FakeEventSource(url) as unknown as EventSource);
  const signals: StreamSignal[] = [];
  const unsubscribe = stream.subscribe((signal) => signals.push(signal));
  return { stream, signals, unsubscribe };
}

describe('IncidentStream', () => {
  it('goes live on ready, asks for a resync once, and passes incidents on', () => {
    const { stream, signals } = connect();
    expect(stream.status).toBe('connecting');
    const source = FakeEventSource.current();
    expect(source.url).toBe('/api/connections/default/rate-limits/stream');
    source.emit('ready', { seq: 4 }, '4');
    expect(stream.status).toBe('live');
    source.emit('incident', incident({ seq: 5 }), '5');
    source.emit('incident', { not: 'an incident' }, '6');
    expect(signals).toEqual([
      { type: 'resync' },
      { type: 'incident', incident: incident({ seq: 5 }) },
    ]);
  });

  it('shows it is reconnecting while the browser retries by itself', () => {
    const { stream } = connect();
    const source = FakeEventSource.current();
    source.emit('ready', {}, '1');
    source.fail(0);
    expect(stream.status).toBe('reconnecting');
    expect(FakeEventSource.instances).toHaveLength(1);
    source.emit('ready', {}, '1');
    expect(stream.status).toBe('live');
  });

  it('reconnects by itself from the last id when the browser gives up', () => {
    const { stream, signals } = connect();
    const first = FakeEventSource.current();
    first.emit('ready', {}, '3');
    first.emit('incident', incident({ seq: 7 }), '7');
    first.fail(2);
    expect(stream.status).toBe('reconnecting');
    vi.advanceTimersByTime(1_000);
    const second = FakeEventSource.current();
    expect(second).not.toBe(first);
    expect(second.url).toBe('/api/connections/default/rate-limits/stream?lastEventId=7');
    second.emit('ready', {}, '7');
    expect(stream.status).toBe('live');
    // A replaying reconnect does not ask for a resync.
    expect(signals.filter((signal) => signal.type === 'resync')).toHaveLength(1);
  });

  it('treats a silent stream (no heartbeat) as dropped', () => {
    const { stream } = connect();
    const first = FakeEventSource.current();
    first.emit('ready', {}, '2');
    vi.advanceTimersByTime(40_000);
    first.emit('heartbeat', {});
    vi.advanceTimersByTime(40_000);
    expect(stream.status).toBe('live');
    vi.advanceTimersByTime(6_000);
    expect(stream.status).toBe('reconnecting');
    vi.advanceTimersByTime(1_000);
    expect(FakeEventSource.current().url).toBe(
      '/api/connections/default/rate-limits/stream?lastEventId=2',
    );
  });

  it('closes a while after the last subscriber leaves', () => {
    const { unsubscribe } = connect();
    const source = FakeEventSource.current();
    unsubscribe();
    vi.advanceTimersByTime(5_000);
    expect(source.readyState).toBe(2);
  });
});
