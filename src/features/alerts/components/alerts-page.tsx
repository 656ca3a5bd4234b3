// Page `/alerts`: the early-warning forecast per limit, and where alerts go. Every role reads;
// admins add, test, pause and remove destinations and change thresholds.
import { useQuery } from '@tanstack/react-query';
import { LoadErrorPanel } from '../../../components/ui/load-error-panel';
import { StatusPanel } from '../../../components/ui/status-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { useViewerRole } from '../../../lib/session-query';
import { destinationsQueryOptions, forecastQueryOptions } from '../api/alerts-api';
import { DestinationCard } from './destination-card';
import { DestinationForm } from './destination-form';
import { ForecastTable } from './forecast-table';
import './alerts.css';

/** The alerts page. */
export function AlertsPage() {
  const role = useViewerRole();
  const canEdit = role.data === 'admin';
  const forecast = useQuery(forecastQueryOptions());
  const destinations = useQuery(destinationsQueryOptions());

  return (
    <section className="page page-stack alerts-page" aria-labelledby="alerts-title">
      <PageHeader titleId="alerts-title" title="Early warning and alerts">
        When each limit runs out at the current rate, and who is told when something happens.
        {canEdit ? null : ' Only administrators can change destinations and thresholds.'}
      </PageHeader>

      <section className="card alerts-section" aria-labelledby="forecast-title">
        <h2 id="forecast-title">Forecast</h2>
        <p className="muted">
          The requests in each limit’s window — the console’s own and every reporting integration’s
          — at the rate of the last minute. A limit warns when it passes its threshold, or when this
          rate would fill its window.
        </p>
        {forecast.isPending ? (
          <p className="muted">Loading the forecast…</p>
        ) : forecast.isError ? (
          <LoadErrorPanel title="The forecast could not be loaded" query={forecast} />
        ) : (
          <ForecastTable limits={forecast.data.limits} canEdit={canEdit} />
        )}
      </section>

      <section className="alerts-section-plain" aria-labelledby="destinations-title">
        <h2 id="destinations-title">Destinations</h2>
        {destinations.isPending ? (
          <p className="muted">Loading destinations…</p>
        ) : destinations.isError ? (
          <LoadErrorPanel title="Destinations could not be loaded" query={destinations} />
        ) : destinations.data.items.length === 0 ? (
          <StatusPanel title="No destinations yet" headingLevel={3}>
            <p>
              {canEdit
                ? 'Add a webhook or a Slack-compatible incoming webhook below to be told of incidents, blocks and limits running out.'
                : 'An administrator can add webhooks and Slack-compatible destinations here.'}
            </p>
          </StatusPanel>
        ) : (
          <div className="destination-list">
            {destinations.data.items.map((destination) => (
              <DestinationCard key={destination.id} destination={destination} canEdit={canEdit} />
            ))}
          </div>
        )}
      </section>

      {canEdit ? (
        <section className="card alerts-section" aria-labelledby="add-destination-title">
          <h2 id="add-destination-title">Add a destination</h2>
          <DestinationForm />
        </section>
      ) : null}
    </section>
  );
}
