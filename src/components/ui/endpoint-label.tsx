// A platform endpoint as people read it: the operation's name first, its method and path after,
// smaller, for whoever compares it with a log; the path alone for an endpoint the console cannot name.
import { endpointName } from '../../shared/endpoint-name';
import './endpoint-label.css';

/** The operation's name of `endpoint` ("GET /path") with the endpoint itself as a secondary line. */
export function EndpointLabel({ endpoint }: { endpoint: string }) {
  const name = endpointName(endpoint);
  if (name === null) return <code>{endpoint}</code>;
  return (
    <>
      {name} <code className="endpoint-path muted">{endpoint}</code>
    </>
  );
}

/** "v4 · Basic details (GET /path)" for a sentence, or the endpoint alone. */
export function endpointText(endpoint: string): string {
  const name = endpointName(endpoint);
  return name === null ? endpoint : `${name} (${endpoint})`;
}
