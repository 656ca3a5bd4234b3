// The forecast per limit: how much of each window is used, at what rate, when it runs out at that
// rate, and the warning threshold (admins change it in place). Reported requests the forecast
// left out as implausible are named under the figure they are not part of.
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { formatCount, formatTime } from '../../../lib/format';
import { blockedLabel, sharedBlock } from '../../../shared/limit-state';
import { counted } from '../../../shared/counted';
import { ALERT_LIMITS, type LimitForecast } from '../../../shared/alerts';
import { useSetThreshold } from '../api/alerts-api';
import { formatDuration, LEVEL_LABELS, limitName } from '../format';

function ThresholdCell({ forecast, canEdit }: { forecast: LimitForecast; canEdit: boolean }) {
  const [value, setValue] = useState(String(forecast.thresholdPercent));
  const setThreshold = useSetThreshold();
  if (!canEdit) return <>{forecast.thresholdPercent}%</>;
  const { min, max } = ALERT_LIMITS.thresholdPercent;
  const number = Number(value);
  const valid = /^\d{1,3}$/.test(value) && number >= min && number <= max;
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    setThreshold.mutate({ ruleId: forecast.ruleId, period: forecast.period, percent: number });
  };
  const id = `threshold-${forecast.key.replace(/[^a-z0-9]/gi, '-')}`;
  return (
    <form className="threshold-form" onSubmit={save} noValidate>
      <label className="visually-hidden" htmlFor={id}>
        Warning threshold of {limitName(forecast)}, percent
      </label>
      <input
        id={id}
        className="input threshold-input"
        inputMode="numeric"
        value={value}
        aria-invalid={!valid || undefined}
        onChange={(event) => setValue(event.target.value)}
      />
      <span aria-hidden="true">%</span>
      <button
        type="submit"
        className="button"
        disabled={!valid || number === forecast.thresholdPercent || setThreshold.isPending}
      >
        Save
      </button>
      {!valid ? (
        <span className="field-error">
          {min}–{max}
        </span>
      ) : null}
      {setThreshold.error ? (
        <span className="field-error">
          {setThreshold.error instanceof ApiError ? setThreshold.error.message : 'Not saved'}
        </span>
      ) : null}
    </form>
  );
}

/** The forecast table. */
export function ForecastTable({
  limits,
  canEdit,
}: {
  limits: readonly LimitForecast[];
  canEdit: boolean;
}) {
  const shared = sharedBlock(limits.map((limit) => limit.block));
  return (
    <div className="alerts-table-wrap">
      <table className="alerts-table forecast-table">
        {shared ? (
          <caption className="forecast-block-caption">
            {blockedLabel(shared)}, every limit below until {formatTime(shared.until)}.{' '}
            <span className="muted">{shared.reason}</span>
          </caption>
        ) : null}
        <thead>
          <tr>
            <th scope="col">Limit</th>
            <th scope="col">Used in window</th>
            <th scope="col">Rate</th>
            <th scope="col">Runs out</th>
            <th scope="col">Warn at</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {limits.map((limit) => (
            <tr key={limit.key} data-level={limit.level}>
              <th scope="row">{limitName(limit)}</th>
              <td data-label="Used in window">
                {formatCount(limit.used)} of {formatCount(limit.limit)}{' '}
                <span className="muted">({limit.percentUsed}%)</span>
                {limit.setAside ? (
                  <div className="muted forecast-set-aside">
                    Not counted: {counted(limit.setAside, 'reported request')} set aside as
                    implausible (one integration claimed a whole account minute)
                  </div>
                ) : null}
              </td>
              <td data-label="Rate">{formatCount(limit.ratePerMinute)} / min</td>
              <td data-label="Runs out">
                {limit.block
                  ? shared
                    ? 'Blocked (see above)'
                    : `Blocked until ${formatTime(limit.block.until)}`
                  : limit.secondsToExhaustion === null
                    ? 'Not at this rate'
                    : limit.secondsToExhaustion === 0
                      ? 'Now'
                      : `in ${formatDuration(limit.secondsToExhaustion)}`}
              </td>
              <td data-label="Warn at">
                <ThresholdCell key={limit.thresholdPercent} forecast={limit} canEdit={canEdit} />
              </td>
              <td data-label="State">
                <span className="level-badge" data-level={limit.level}>
                  {LEVEL_LABELS[limit.level]}
                </span>
                {/* Why, in the same words as the rate-limits page and the banner. */}
                {limit.block && !shared ? (
                  <div className="forecast-block-reason">
                    {blockedLabel(limit.block)}. <span className="muted">{limit.block.reason}</span>
                  </div>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
