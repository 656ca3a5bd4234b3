// The console-wide notice while the console itself is degraded: its incident store does not
// answer (requests still work, new 429s are not recorded), or the replicas cannot share the rate
// limits (each holds back to its share), or it cannot get an access token from the platform (with
// the diagnosed cause). Shown above every page, gone when all is well again.
import { useQuery } from '@tanstack/react-query';
import { consoleHealthQueryOptions } from '../api/console-health-api';
import './console-health-banner.css';

/** Renders nothing while the console is healthy. */
export function ConsoleHealthBanner() {
  const health = useQuery(consoleHealthQueryOptions());
  const data = health.data;
  if (!data) return null;
  const notices: string[] = [];
  if (data.store === 'unavailable') {
    notices.push(
      'The console cannot reach its incident store. Requests to the platform still work and 429s are still answered, but new incidents are not being recorded and the history may be incomplete.',
    );
  }
  if (data.audit === 'failing') {
    notices.push(
      'The console cannot write to its audit trail, so data-subject lookups are refused and nothing is sent to the platform until it can.',
    );
  }
  if (data.governor === 'fallback') {
    notices.push(
      'The console’s replicas cannot share the platform’s rate limits right now, so each holds back to its own share: you may see more “holding requests back” answers than usual.',
    );
  }
  if (data.platformSignIn) {
    notices.push(
      `The console cannot sign in to the privacy platform: ${data.platformSignIn.title}. ${data.platformSignIn.detail}`,
    );
  }
  if (notices.length === 0) return null;
  return (
    <div className="console-health-banner" role="status">
      {notices.map((notice) => (
        <p key={notice}>{notice}</p>
      ))}
    </div>
  );
}
