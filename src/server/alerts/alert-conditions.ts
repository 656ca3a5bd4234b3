// Which limit conditions are firing, kept in the database so every replica and every restart
// agree: a limit past its threshold alerts once when it crosses, stays quiet while it stays past
// (optionally repeating after an interval in hours), and sends "resolved" once it recovers, as
// Alertmanager and Grafana do. Deduplicating per window instead repeated the alert every minute for
// as long as the limit stayed high, and twice when a crossing straddled a window's edge.
import type { SqlDatabase } from '../store/database';
import * as z from 'zod';
import { integer, select } from '../store/typed-rows';

/** What evaluating one condition asks the monitor to send. */
export type ConditionChange =
  | { readonly kind: 'firing'; readonly since: number; readonly repeat: boolean }
  | { readonly kind: 'resolved'; readonly since: number }
  | { readonly kind: 'none' };

const NONE: ConditionChange = { kind: 'none' };

/** The firing conditions in the console's database (table `alert_conditions`). */
export class AlertConditions {
  readonly #database: () => Promise<SqlDatabase>;

  constructor(database: () => Promise<SqlDatabase>) {
    this.#database = database;
  }

  /**
   * `key` is firing at `at`. The first call of an episode (of all replicas: the insert decides)
   * says so; later calls say nothing, unless `repeatMs` passed since the last notification.
   */
  async firing(key: string, at: number, repeatMs: number | null): Promise<ConditionChange> {
    const db = await this.#database();
    const inserted = await select(
      db,
      z.object({ firing_since: integer }),
      `INSERT INTO alert_conditions (condition_key, firing_since, notified_at) VALUES ($1, $2, $2)
       ON CONFLICT (condition_key) DO NOTHING RETURNING firing_since`,
      [key, at],
    );
    if (inserted.rows[0]) return { kind: 'firing', since: at, repeat: false };
    if (repeatMs === null) return NONE;
    // Only the replica whose update moves notified_at forward sends the reminder.
    const repeated = await select(
      db,
      z.object({ firing_since: integer }),
      `UPDATE alert_conditions SET notified_at = $2
       WHERE condition_key = $1 AND notified_at <= $3 RETURNING firing_since`,
      [key, at, at - repeatMs],
    );
    const row = repeated.rows[0];
    return row ? { kind: 'firing', since: row.firing_since, repeat: true } : NONE;
  }

  /** `key` is not firing at `at`: ends its episode, once, if one was running. */
  async calm(key: string): Promise<ConditionChange> {
    const db = await this.#database();
    const ended = await select(
      db,
      z.object({ firing_since: integer }),
      'DELETE FROM alert_conditions WHERE condition_key = $1 RETURNING firing_since',
      [key],
    );
    const row = ended.rows[0];
    return row ? { kind: 'resolved', since: row.firing_since } : NONE;
  }
}
