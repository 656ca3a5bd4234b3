// Reads a Server-Sent Events answer the way a browser's EventSource splits it, for route tests.

/** One event as received: its name, id and data. */
export type Event = { event: string; id?: string; data: string };

/** Reads server-sent events until `until` says stop or the stream ends. */
export async function readEvents(response: Response, until: (events: Event[]) => boolean) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: Event[] = [];
  let buffer = '';
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(
        block
          .split('\n')
          .filter((line) => line && !line.startsWith(':'))
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      if (fields.data !== undefined) {
        events.push({ event: fields.event ?? 'message', id: fields.id, data: fields.data });
      }
    }
  }
  await reader.cancel().catch(() => undefined);
  return events;
}
