// Alert destinations, the delivery outbox and the warning thresholds in the console's database
// (SQLite embedded, or PostgreSQL shared by replicas). Portable SQL over SqlDatabase; claiming a
// due delivery is one conditional UPDATE, so two replicas never send the same attempt at once.
import * as z from 'zod';
import {
  DELIVERY_EVENT_TYPES,
  DELIVERY_STATUSES,
  DESTINATION_KINDS,
  SIGNING_SCHEME_NAMES,
  type AlertEventType,
  type Delivery,
  type DeliveryEventType,
  type DeliveryStatus,
  type Destination,
} from '../../shared/alerts';
import type { SqlDatabase } from '../store/database';
import { flag, integer, select } from '../store/typed-rows';

/** A destination as the server uses it: with its URL and secret. */
export interface StoredDestination extends Omit<Destination, 'urlHint'> {
  readonly url: string;
  /** Signs generic webhooks; null for Slack-compatible destinations. */
  readonly secret: string | null;
}

/** A new outbox row. */
export interface NewDelivery {
  readonly id: string;
  readonly destinationId: string;
  /** The platform connection the alert is about (console-wide alerts: DEFAULT_CONNECTION). */
  readonly connection: string;
  readonly event: DeliveryEventType;
  readonly dedupKey: string;
  readonly summary: string;
  /** The alert object (alert-payload.ts), as JSON. */
  readonly payload: string;
  readonly createdAt: number;
  /** When the first attempt is due (a block's end is due when the block ends). */
  readonly dueAt: number;
}

/** An outbox row claimed for an attempt. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly destinationId: string;
  readonly event: DeliveryEventType;
  readonly payload: string;
  /** Attempts made before this one. */
  readonly attempts: number;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  readonly status: Extract<DeliveryStatus, 'delivered' | 'retrying' | 'dead'>;
  readonly at: number;
  readonly nextAttemptAt: number | null;
  readonly responseStatus: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
}

/** A row of alert_destinations, as read. */
const DestinationRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(DESTINATION_KINDS),
  url: z.string(),
  secret: z.string().nullable(),
  signing: z.enum(SIGNING_SCHEME_NAMES).nullable(),
  events: z.string(),
  enabled: flag,
  hold_back_seconds: integer,
  created_at: z.string(),
});
type DestinationRow = z.infer<typeof DestinationRowSchema>;

/** A row of alert_deliveries, as read. */
const DeliveryRowSchema = z.object({
  id: z.string(),
  destination_id: z.string(),
  event: z.enum(DELIVERY_EVENT_TYPES),
  summary: z.string(),
  payload: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: integer,
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  response_status: integer.nullable(),
  error: z.string().nullable(),
  latency_ms: integer.nullable(),
  created_at: z.string(),
  connection: z.string(),
});
type DeliveryRow = z.infer<typeof DeliveryRowSchema>;

const iso = (ms: number) => new Date(ms).toISOString();

function toDestination(row: DestinationRow): StoredDestination {
  let events: AlertEventType[] = [];
  try {
    events = JSON.parse(row.events) as AlertEventType[];
  } catch {
    // A damaged row sends nothing rather than everything.
  }
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    url: row.url,
    secret: row.secret,
    signing: row.signing,
    events,
    enabled: row.enabled,
    holdBackSeconds: row.hold_back_seconds,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** What the log shows of the alert itself: when it happened and which limit it is about. */
function aboutAlert(row: DeliveryRow): Pick<Delivery, 'occurredAt' | 'ruleId' | 'period'> {
  const createdAt = new Date(row.created_at).toISOString();
  try {
    const alert = JSON.parse(row.payload) as {
      occurredAt?: unknown;
      data?: { rule?: unknown; period?: unknown };
    };
    const occurred =
      typeof alert.occurredAt === 'string' ? Date.parse(alert.occurredAt) : Number.NaN;
    const period = alert.data?.period;
    return {
      occurredAt: Number.isNaN(occurred) ? createdAt : new Date(occurred).toISOString(),
      ruleId: typeof alert.data?.rule === 'string' ? alert.data.rule : null,
      period: period === 'MINUTE' || period === 'HOUR' ? period : null,
    };
  } catch {
    return { occurredAt: createdAt, ruleId: null, period: null };
  }
}

function toDelivery(row: DeliveryRow): Delivery {
  const due = row.status === 'pending' || row.status === 'retrying';
  return {
    id: row.id,
    destinationId: row.destination_id,
    connection: row.connection,
    event: row.event,
    summary: row.summary,
    ...aboutAlert(row),
    createdAt: new Date(row.created_at).toISOString(),
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: due && row.next_attempt_at ? new Date(row.next_attempt_at).toISOString() : null,
    lastAttemptAt: row.last_attempt_at ? new Date(row.last_attempt_at).toISOString() : null,
    deliveredAt: row.delivered_at ? new Date(row.delivered_at).toISOString() : null,
    responseStatus: row.response_status,
    error: row.error,
    latencyMs: row.latency_ms,
  };
}

const DESTINATION_COLUMNS =
  'id, name, kind, url, secret, signing, events, enabled, hold_back_seconds, created_at';
const DELIVERY_COLUMNS = `id, destination_id, event, summary, payload, status, attempts,
  next_attempt_at, last_attempt_at, delivered_at, response_status, error, latency_ms, created_at,
  connection`;

/** Due: waiting for its time, or delivering under a lease that ran out (its sender died). */
const DUE = `((status IN ('pending', 'retrying') AND next_attempt_at <= CAST($1 AS text))
  OR (status = 'delivering' AND lease_until <= CAST($1 AS text)))`;

/** The events whose deliveries go out one at a time per destination, oldest first. */
export const ORDERED_EVENTS: readonly DeliveryEventType[] = ['audit.entry'];

/** An alert that has not gone out yet. */
const WAITING = `status IN ('pending', 'retrying', 'delivering')`;

/**
 * An ordered event waits while an older one of its kind to the same destination has not gone out
 * (ids are UUIDv7, in the order they were queued): a SIEM receives entries in the chain's order,
 * and one the receiver refuses holds the rest back instead of being overtaken.
 */
const IN_TURN = `(event NOT IN (${ORDERED_EVENTS.map((event) => `'${event}'`).join(', ')})
  OR NOT EXISTS (SELECT 1 FROM alert_deliveries older
    WHERE older.destination_id = alert_deliveries.destination_id
      AND older.event = alert_deliveries.event AND older.id < alert_deliveries.id
      AND older.status IN ('pending', 'retrying', 'delivering')))`;

/** The alert tables. */
export class AlertStore {
  readonly #db: () => Promise<SqlDatabase>;

  constructor(database: () => Promise<SqlDatabase>) {
    this.#db = database;
  }

  /** The rows a read answers. */
  async #select<Row extends z.ZodType>(
    row: Row,
    sql: string,
    params?: unknown[],
  ): Promise<Array<z.output<Row>>> {
    return (await select(await this.#db(), row, sql, params)).rows;
  }

  /** The row of `table` (a constant of this module) with `id`, mapped; undefined if none. */
  async #byId<Row extends z.ZodType, T>(
    row: Row,
    table: string,
    columns: string,
    id: string,
    map: (row: z.output<Row>) => T,
  ) {
    const [found] = await this.#select(row, `SELECT ${columns} FROM ${table} WHERE id = $1`, [id]);
    return found ? map(found) : undefined;
  }

  async createDestination(destination: StoredDestination): Promise<void> {
    const db = await this.#db();
    await db.query(
      `INSERT INTO alert_destinations (${DESTINATION_COLUMNS}, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
      [
        destination.id,
        destination.name,
        destination.kind,
        destination.url,
        destination.secret,
        destination.signing,
        JSON.stringify(destination.events),
        destination.enabled ? 1 : 0,
        destination.holdBackSeconds,
        destination.createdAt,
      ],
    );
  }

  /** Every destination, oldest first. */
  async listDestinations(): Promise<StoredDestination[]> {
    const rows = await this.#select(
      DestinationRowSchema,
      `SELECT ${DESTINATION_COLUMNS} FROM alert_destinations ORDER BY created_at, id`,
    );
    return rows.map(toDestination);
  }

  async getDestination(id: string): Promise<StoredDestination | undefined> {
    return this.#byId(
      DestinationRowSchema,
      'alert_destinations',
      DESTINATION_COLUMNS,
      id,
      toDestination,
    );
  }

  /** Changes the editable fields; resolves to the destination after, or undefined if unknown. */
  async updateDestination(
    id: string,
    change: {
      name?: string;
      events?: readonly AlertEventType[];
      enabled?: boolean;
      holdBackSeconds?: number;
    },
    now: number,
  ): Promise<StoredDestination | undefined> {
    const db = await this.#db();
    await db.query(
      `UPDATE alert_destinations SET
         name = COALESCE(CAST($2 AS text), name),
         events = COALESCE(CAST($3 AS text), events),
         enabled = COALESCE(CAST($4 AS integer), enabled),
         hold_back_seconds = COALESCE(CAST($5 AS integer), hold_back_seconds),
         updated_at = $6
       WHERE id = $1`,
      [
        id,
        change.name ?? null,
        change.events ? JSON.stringify(change.events) : null,
        change.enabled === undefined ? null : change.enabled ? 1 : 0,
        change.holdBackSeconds ?? null,
        iso(now),
      ],
    );
    return this.getDestination(id);
  }

  /** Removes a destination and its delivery log; resolves to whether it existed. */
  async deleteDestination(id: string): Promise<boolean> {
    const db = await this.#db();
    return db.transaction(async (tx) => {
      const { rows } = await select(
        tx,
        z.object({ id: z.string() }),
        'DELETE FROM alert_destinations WHERE id = $1 RETURNING id',
        [id],
      );
      await tx.query('DELETE FROM alert_deliveries WHERE destination_id = $1', [id]);
      return rows.length > 0;
    });
  }

  /**
   * Puts an alert in the outbox unless one with the same dedup key exists for the destination.
   * Resolves to whether it was added.
   */
  async enqueue(delivery: NewDelivery): Promise<boolean> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      z.object({ id: z.string() }),
      `INSERT INTO alert_deliveries (id, destination_id, event, dedup_key, summary, payload,
         status, attempts, next_attempt_at, created_at, connection)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, $7, $8, $9)
       ON CONFLICT (destination_id, dedup_key) DO NOTHING
       RETURNING id`,
      [
        delivery.id,
        delivery.destinationId,
        delivery.event,
        delivery.dedupKey,
        delivery.summary,
        delivery.payload,
        iso(delivery.dueAt),
        iso(delivery.createdAt),
        delivery.connection,
      ],
    );
    return rows.length > 0;
  }

  /** How many alerts of `event` to the destination have not gone out yet (the bounded queue). */
  async waiting(destinationId: string, event: DeliveryEventType): Promise<number> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      z.object({ n: integer }),
      `SELECT COUNT(*) AS n FROM alert_deliveries
        WHERE destination_id = $1 AND event = $2 AND ${WAITING}`,
      [destinationId, event],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Moves a still-pending alert to a later due time with a new payload (a block that was
   * lengthened ends later). Nothing happens to one already sent.
   */
  async postpone(
    destinationId: string,
    dedupKey: string,
    dueAt: number,
    summary: string,
    payload: (id: string) => string,
  ): Promise<void> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      z.object({ id: z.string(), next_attempt_at: z.string() }),
      `SELECT id, next_attempt_at FROM alert_deliveries
       WHERE destination_id = $1 AND dedup_key = $2 AND status = 'pending' AND attempts = 0`,
      [destinationId, dedupKey],
    );
    const row = rows[0];
    if (!row || row.next_attempt_at >= iso(dueAt)) return;
    await db.query(
      `UPDATE alert_deliveries SET next_attempt_at = $2, summary = $3, payload = $4
       WHERE id = $1 AND status = 'pending' AND attempts = 0`,
      [row.id, iso(dueAt), summary, payload(row.id)],
    );
  }

  /**
   * Claims up to `limit` due deliveries for one attempt each, leased until `leaseUntil`: a process
   * that dies mid-attempt leaves a lease that runs out, and the row is due again (at least once).
   */
  async claimDue(now: number, leaseUntil: number, limit: number): Promise<ClaimedDelivery[]> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      z.object({ id: z.string() }),
      `SELECT id FROM alert_deliveries WHERE ${DUE} AND ${IN_TURN}
        ORDER BY next_attempt_at, id LIMIT $2`,
      [iso(now), limit],
    );
    const claimed: ClaimedDelivery[] = [];
    for (const { id } of rows) {
      const taken = await select(
        db,
        DeliveryRowSchema,
        `UPDATE alert_deliveries SET status = 'delivering', lease_until = $2
         WHERE id = $3 AND ${DUE}
         RETURNING ${DELIVERY_COLUMNS}`,
        [iso(now), iso(leaseUntil), id],
      );
      const row = taken.rows[0];
      if (row) {
        claimed.push({
          id: row.id,
          destinationId: row.destination_id,
          event: row.event,
          payload: row.payload,
          attempts: row.attempts,
        });
      }
    }
    return claimed;
  }

  /** Records the outcome of an attempt on a claimed delivery. */
  async finish(id: string, outcome: AttemptOutcome): Promise<void> {
    const db = await this.#db();
    await db.query(
      `UPDATE alert_deliveries SET status = $2, attempts = attempts + 1, last_attempt_at = $3,
         next_attempt_at = $4, lease_until = NULL, response_status = $5, error = $6,
         latency_ms = $7, delivered_at = $8
       WHERE id = $1 AND status = 'delivering'`,
      [
        id,
        outcome.status,
        iso(outcome.at),
        outcome.nextAttemptAt === null ? null : iso(outcome.nextAttemptAt),
        outcome.responseStatus,
        outcome.error,
        outcome.latencyMs,
        outcome.status === 'delivered' ? iso(outcome.at) : null,
      ],
    );
  }

  /** The delivery log of one destination, newest first. */
  async listDeliveries(destinationId: string, limit: number): Promise<Delivery[]> {
    const rows = await this.#select(
      DeliveryRowSchema,
      `SELECT ${DELIVERY_COLUMNS} FROM alert_deliveries WHERE destination_id = $1
       ORDER BY created_at DESC, id DESC LIMIT $2`,
      [destinationId, limit],
    );
    return rows.map(toDelivery);
  }

  async getDelivery(id: string): Promise<Delivery | undefined> {
    return this.#byId(DeliveryRowSchema, 'alert_deliveries', DELIVERY_COLUMNS, id, toDelivery);
  }

  /**
   * Sends a dead (or delivered) alert again from the first attempt, with the same idempotency key
   * so a receiver that has it already can tell. Resolves to the delivery, or undefined when it is
   * unknown or still on its way.
   */
  async resend(id: string, now: number): Promise<Delivery | undefined> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      DeliveryRowSchema,
      `UPDATE alert_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $2,
         error = NULL, response_status = NULL, latency_ms = NULL, delivered_at = NULL
       WHERE id = $1 AND status IN ('dead', 'delivered')
       RETURNING ${DELIVERY_COLUMNS}`,
      [id, iso(now)],
    );
    return rows[0] ? toDelivery(rows[0]) : undefined;
  }

  /** The configured thresholds, by limit key. */
  async thresholds(): Promise<Map<string, number>> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      z.object({ limit_key: z.string(), percent: integer }),
      'SELECT limit_key, percent FROM alert_thresholds',
    );
    return new Map(rows.map((row) => [row.limit_key, row.percent]));
  }

  async setThreshold(key: string, percent: number, now: number): Promise<void> {
    const db = await this.#db();
    await db.query(
      `INSERT INTO alert_thresholds (limit_key, percent, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (limit_key) DO UPDATE SET percent = excluded.percent,
         updated_at = excluded.updated_at`,
      [key, percent, iso(now)],
    );
  }
}
