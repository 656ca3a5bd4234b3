// An upstream answer laid out for reading: the record's fields as a list, each list of records as a
// table, and the paging fields in a line of their own.
import { useMemo } from 'react';
import { describeAnswer } from '../answer-model';
import { FieldValue } from './field-value';
import { RecordTable } from './record-table';

export interface AnswerViewProps {
  data: unknown;
  /** What the records of a listing are, e.g. "Link tokens". */
  listTitle: string;
  /** Prefixes table names, so two answers side by side have distinct tables ("v4", "Legacy"). */
  label?: string;
}

/** Fields, tables and paging of one answer. */
export function AnswerView({ data, listTitle, label }: AnswerViewProps) {
  const model = useMemo(() => describeAnswer(data, listTitle), [data, listTitle]);
  // The slice's own numbers; its token is "load more", and `pageable`/`sort` repeat them.
  const paging = model.paging.filter(
    (field) =>
      field.key !== 'requestContinuation' &&
      (typeof field.value === 'number' || typeof field.value === 'boolean'),
  );
  return (
    <div className="answer-view stack">
      {model.fields.length > 0 ? (
        <dl className="answer-fields">
          {model.fields.map((field) => (
            <div key={field.key} className="answer-field">
              <dt>{field.label}</dt>
              <dd>
                <FieldValue name={field.key} value={field.value} />
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      {model.tables.map((table) => (
        <section key={table.key} className="answer-table">
          <h3>
            {table.title}{' '}
            <span className="muted answer-count">
              ({table.rows.length} {table.rows.length === 1 ? 'record' : 'records'})
            </span>
          </h3>
          <RecordTable table={table} caption={label ? `${label}: ${table.title}` : table.title} />
        </section>
      ))}
      {/* A continuation token is shown as "load more", not as a field. */}
      {paging.length > 0 ? (
        <p className="muted answer-paging">
          Paging:{' '}
          {paging.map((field) => `${field.label.toLowerCase()} ${String(field.value)}`).join(' · ')}
        </p>
      ) : null}
    </div>
  );
}
