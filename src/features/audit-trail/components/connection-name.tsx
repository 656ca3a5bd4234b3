// Where a record of the audit trail happened: the platform connection's label where the person
// knows it (GET /api/connections lists the connections they have a role in), else its name; an
// auditor must see where a sight happened even in a connection they have no role in.
import type { FilterOption } from '../../../components/ui/filter-bar';
import { useConnections } from '../../../lib/connections-query';

/**
 * A record's connection: its label, and beside it the name the exports and the filter's URL hold
 * when the two differ; the name alone for a connection the person does not know.
 */
export function ConnectionName({ name }: { name: string }) {
  const known = useConnections().data?.find((connection) => connection.name === name);
  if (!known || known.label === name) return <>{name}</>;
  return (
    <>
      {known.label}
      <code className="cell-sub muted">{name}</code>
    </>
  );
}

/**
 * The connections to filter by: the person's, and the one the URL names even when it is not
 * among them (a connection no longer configured, or one they have no role in, still has records).
 */
export function useConnectionOptions(chosen: string | undefined): readonly FilterOption[] {
  const connections = useConnections().data ?? [];
  const options = connections.map(({ name, label }) => ({ value: name, label }));
  return chosen && !connections.some(({ name }) => name === chosen)
    ? [...options, { value: chosen, label: chosen }]
    : options;
}
