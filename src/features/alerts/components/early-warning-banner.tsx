// The console-wide early warning: above every page while a limit is past its threshold or will run
// out within its window at the current rate, with a link to the forecast. Gone when all is calm.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { forecastQueryOptions } from '../api/alerts-api';
import { warningText } from '../format';
import './early-warning-banner.css';

/** Renders nothing while every limit is comfortably within bounds. */
export function EarlyWarningBanner() {
  const forecast = useQuery({ ...forecastQueryOptions(15_000), retry: false });
  const warnings = (forecast.data?.limits ?? [])
    .map((limit) => warningText(limit))
    .filter((text): text is string => text !== null);
  if (warnings.length === 0) return null;
  return (
    <div className="page-banner early-warning-banner" role="status">
      <strong>Early warning:</strong>
      <ul>
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
      <Link to="/alerts">See the forecast and alert settings</Link>
    </div>
  );
}
