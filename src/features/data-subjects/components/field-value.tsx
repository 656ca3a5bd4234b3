// One value of an upstream answer, readable: times as times, statuses as badges, yes/no for flags,
// nested lists summarised, and a visible "—" for what the answer does not have.
import { MissingValue } from '../../../components/ui/missing-value';
import { fieldLabel, isIsoTime, isRecord, summarise } from '../answer-model';
import { formatDate, formatDateTime, statusTone } from '../format';

/** Renders `value` of the field `name`; `compact` (table cells) shows times as dates. */
export function FieldValue({
  name,
  value,
  compact = false,
}: {
  name: string;
  value: unknown;
  compact?: boolean;
}) {
  if (value === null || value === undefined || value === '') return <MissingValue />;
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  if (isIsoTime(value)) {
    return (
      <time dateTime={value} title={formatDateTime(value)}>
        {compact ? formatDate(value) : formatDateTime(value)}
      </time>
    );
  }
  if (typeof value === 'string' && /status$/i.test(name)) {
    return (
      <span className="status-badge" data-tone={statusTone(value)}>
        {value.replace(/_/g, ' ')}
      </span>
    );
  }
  // In a table cell a list of several entries, or of records (a topic is an id and a name), would
  // make its row as tall as the list: show the count, and the entries behind a disclosure.
  if (compact && Array.isArray(value) && (value.length > 1 || isRecord(value[0]))) {
    const label = fieldLabel(name).toLowerCase();
    return (
      <details className="nested-list">
        <summary>
          {value.length} {value.length === 1 ? label.replace(/s$/, '') : label}
        </summary>
        <ul>
          {value.map((entry, index) => (
            // A record's name says what it is; its id is in the raw JSON.
            <li key={index}>
              {(isRecord(entry) && typeof entry.name === 'string'
                ? entry.name
                : summarise(entry)) || '—'}
            </li>
          ))}
        </ul>
      </details>
    );
  }
  if (typeof value === 'object') {
    const text = summarise(value);
    const count = Array.isArray(value) ? value.length : undefined;
    if (!text) return count === 0 ? <span className="muted">none</span> : <MissingValue />;
    return <span className="nested-value">{text}</span>;
  }
  if (typeof value === 'string' && /guid$|^id$|token$/i.test(name)) {
    return <code className="id-value">{value}</code>;
  }
  return <>{String(value)}</>;
}
