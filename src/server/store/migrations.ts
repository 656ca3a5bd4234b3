// The database schema as an ordered list of migrations. Append only: a published migration never
// changes, the next change is the next version.
//
// Portable SQL: every statement runs unchanged on SQLite (the embedded store) and PostgreSQL
// (DATABASE_URL). So: types text, integer and bigint only; times as ISO-8601 UTC text with
// milliseconds (it sorts like the time); JSON as text; no arrays, sequences or now(); booleans
// as 0/1; parameters as $1, $2…, cast with CAST($1 AS text) where PostgreSQL cannot infer a type.

/** One schema change. */
export interface Migration {
  /** 1, 2, 3, … in order, without gaps. */
  readonly version: number;
  readonly name: string;
  /** One or more statements, run in one transaction. */
  readonly sql: string;
}

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'rate-limit incidents',
    sql: `
      -- One row per blocking occurrence (ot-ratelimit-event-id, or a generated key when the 429
      -- carried none); every further 429 of the same occurrence updates the row.
      CREATE TABLE rate_limit_incidents (
        key text PRIMARY KEY,
        event_id text,
        -- Grows on every insert or update, across all rows: the live stream's event id.
        seq bigint NOT NULL,
        first_seen text NOT NULL,
        last_seen text NOT NULL,
        hits integer NOT NULL,
        period text CHECK (period IN ('MINUTE', 'HOUR')),
        requests_allowed integer,
        requests_made integer,
        retry_after_seconds integer,
        blocked_until text NOT NULL,
        rule_id text,
        scope text NOT NULL CHECK (scope IN ('account', 'rule')),
        operation text NOT NULL,
        -- JSON array of flag names, and JSON object of the 429's headers as received.
        flags text NOT NULL DEFAULT '[]',
        headers text NOT NULL DEFAULT '{}'
      );
      CREATE UNIQUE INDEX rate_limit_incidents_seq ON rate_limit_incidents (seq);
      CREATE INDEX rate_limit_incidents_newest ON rate_limit_incidents (first_seen DESC, key DESC);
      CREATE INDEX rate_limit_incidents_blocked ON rate_limit_incidents (blocked_until);
      -- Named counters taken inside a transaction (a portable stand-in for sequences).
      CREATE TABLE store_counters (name text PRIMARY KEY, value bigint NOT NULL);
      INSERT INTO store_counters (name, value) VALUES ('incident_seq', 0);
    `,
  },
  {
    version: 2,
    name: 'lookup audit trail',
    sql: `
      -- One row per data-subject lookup (docs/product.md §6), written before its answer is returned.
      -- The identifier is kept only as an HMAC-SHA256 under the audit key (hex); key_id tells
      -- which key, so records hashed before a key change are recognised rather than mismatched.
      CREATE TABLE lookup_audit (
        id text PRIMARY KEY,
        at text NOT NULL,
        username text NOT NULL,
        operation text NOT NULL,
        outcome text NOT NULL
          CHECK (outcome IN ('ok', 'not-found', 'invalid', 'rate-limited', 'error')),
        status integer NOT NULL,
        detail text,
        identifier_hash text,
        key_id text NOT NULL,
        continued integer NOT NULL DEFAULT 0,
        request_id text
      );
      CREATE INDEX lookup_audit_newest ON lookup_audit (at DESC, id DESC);
      CREATE INDEX lookup_audit_identifier ON lookup_audit (identifier_hash, at DESC, id DESC);
      CREATE INDEX lookup_audit_user ON lookup_audit (username, at DESC);
    `,
  },
  {
    version: 3,
    name: 'integration reports',
    sql: `
      -- Integrations that report their upstream traffic (docs/account-wide-view.md). The reporting
      -- key is kept only as a SHA-256 hash; key_hash is NULL once the key is revoked.
      CREATE TABLE integrations (
        id text PRIMARY KEY,
        name text NOT NULL,
        -- The name lower-cased: names are unique without regard to case.
        name_key text NOT NULL,
        owner text,
        key_hash text,
        key_hint text,
        created_at text NOT NULL,
        key_issued_at text,
        revoked_at text,
        last_report_at text
      );
      CREATE UNIQUE INDEX integrations_name ON integrations (name_key);
      CREATE UNIQUE INDEX integrations_key_hash ON integrations (key_hash);
      -- Per-minute aggregates of what each integration sent, by operation template (never a
      -- concrete path). Rows older than the retention are deleted.
      CREATE TABLE integration_minutes (
        integration_id text NOT NULL,
        minute text NOT NULL,
        method text NOT NULL,
        template text NOT NULL,
        requests bigint NOT NULL,
        throttled bigint NOT NULL,
        PRIMARY KEY (integration_id, minute, method, template)
      );
      CREATE INDEX integration_minutes_minute ON integration_minutes (minute);
      -- The 429s integrations received, one row per integration and blocking occurrence
      -- (ot-ratelimit-event-id, or a generated key).
      CREATE TABLE integration_throttles (
        integration_id text NOT NULL,
        incident_key text NOT NULL,
        event_id text,
        first_seen text NOT NULL,
        last_seen text NOT NULL,
        hits bigint NOT NULL,
        method text NOT NULL,
        template text NOT NULL,
        period text,
        requests_allowed bigint,
        requests_made bigint,
        retry_after_seconds bigint,
        PRIMARY KEY (integration_id, incident_key)
      );
      CREATE INDEX integration_throttles_last_seen ON integration_throttles (last_seen);
      CREATE INDEX integration_throttles_event ON integration_throttles (event_id);
    `,
  },
  {
    version: 4,
    name: 'alert destinations and outbox',
    sql: `
      -- Where alerts go (docs/alerts.md). url and secret never leave the server after creation:
      -- a Slack-compatible URL is itself a credential, and secret signs generic webhooks.
      CREATE TABLE alert_destinations (
        id text PRIMARY KEY,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('webhook', 'slack')),
        url text NOT NULL,
        secret text,
        -- JSON array of the event types sent here.
        events text NOT NULL DEFAULT '[]',
        enabled integer NOT NULL DEFAULT 1,
        hold_back_seconds integer NOT NULL,
        created_at text NOT NULL,
        updated_at text NOT NULL
      );
      -- The outbox: one row per alert per destination, written before any attempt, so an alert
      -- due before a crash is sent after it. (destination_id, dedup_key) is unique: one row per
      -- incident, per block, per threshold crossing per window.
      CREATE TABLE alert_deliveries (
        id text PRIMARY KEY,
        destination_id text NOT NULL,
        event text NOT NULL,
        dedup_key text NOT NULL,
        summary text NOT NULL,
        -- The alert as JSON (no identifier, token or secret); formatted per destination on sending.
        payload text NOT NULL,
        status text NOT NULL
          CHECK (status IN ('pending', 'delivering', 'retrying', 'delivered', 'dead')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at text,
        -- While delivering: when another process may take the row over (the sender crashed).
        lease_until text,
        last_attempt_at text,
        delivered_at text,
        response_status integer,
        error text,
        latency_ms integer,
        created_at text NOT NULL
      );
      CREATE UNIQUE INDEX alert_deliveries_dedup ON alert_deliveries (destination_id, dedup_key);
      CREATE INDEX alert_deliveries_due ON alert_deliveries (status, next_attempt_at);
      CREATE INDEX alert_deliveries_log ON alert_deliveries (destination_id, created_at DESC, id DESC);
      -- Warning thresholds per limit (rule id and period), in percent; absent means the default.
      CREATE TABLE alert_thresholds (
        limit_key text PRIMARY KEY,
        percent integer NOT NULL CHECK (percent BETWEEN 1 AND 100),
        updated_at text NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'audit trail: shown data subjects, intents, hash chain, retention, exports',
    sql: `
      -- What a lookup asked (JSON list of {name, value} with identifiers as keyed hashes), how
      -- many records its answer held and how many distinct data subjects it showed. A lookup is
      -- written as an intent (completed = 0) before anything is sent, and completed after.
      -- chained = 1: the record is covered by the hash chain (older records are not).
      ALTER TABLE lookup_audit ADD COLUMN params text;
      ALTER TABLE lookup_audit ADD COLUMN record_count integer;
      ALTER TABLE lookup_audit ADD COLUMN subject_count integer NOT NULL DEFAULT 0;
      ALTER TABLE lookup_audit ADD COLUMN completed integer NOT NULL DEFAULT 1;
      ALTER TABLE lookup_audit ADD COLUMN chained integer NOT NULL DEFAULT 0;
      -- Every data subject an answer showed, as the keyed hash of its identifier.
      CREATE TABLE lookup_audit_subjects (
        audit_id text NOT NULL,
        identifier_hash text NOT NULL,
        at text NOT NULL,
        PRIMARY KEY (audit_id, identifier_hash)
      );
      CREATE INDEX lookup_audit_subjects_hash
        ON lookup_audit_subjects (identifier_hash, at DESC, audit_id DESC);
      -- The hash chain (audit-chain.ts): one entry per change to the trail, in order.
      CREATE TABLE audit_chain (
        seq bigint PRIMARY KEY,
        at text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('intent', 'outcome', 'retention')),
        record_id text,
        payload text NOT NULL,
        prev_hash text NOT NULL,
        hash text NOT NULL
      );
      CREATE INDEX audit_chain_record ON audit_chain (record_id);
      CREATE INDEX audit_chain_at ON audit_chain (at);
      -- The chain's head, locked by every append (UPDATE first), so concurrent writers (parallel
      -- requests, replicas on one PostgreSQL) append one after another and never fork it. Also
      -- the signed checkpoint retention leaves, the last retention run, and how many records
      -- predate the chain.
      CREATE TABLE audit_chain_state (
        name text PRIMARY KEY,
        seq bigint NOT NULL,
        hash text NOT NULL,
        checkpoint text,
        last_retention text,
        probed_at text,
        legacy_records bigint NOT NULL
      );
      INSERT INTO audit_chain_state (name, seq, hash, legacy_records)
        SELECT 'head', 0, '${'0'.repeat(64)}', COUNT(*) FROM lookup_audit;
      -- Walks of the chain and what they found (npm run audit -- verify, the daily job, the page).
      CREATE TABLE audit_verifications (
        id text PRIMARY KEY,
        at text NOT NULL,
        ok integer NOT NULL,
        entries bigint NOT NULL,
        broken_at bigint,
        detail text NOT NULL,
        source text NOT NULL
      );
      CREATE INDEX audit_verifications_newest ON audit_verifications (at DESC, id DESC);
      -- Signed exports: who exported what, and the detached signature to fetch afterwards.
      CREATE TABLE audit_exports (
        id text PRIMARY KEY,
        at text NOT NULL,
        username text NOT NULL,
        signature text
      );
    `,
  },
  {
    version: 6,
    name: 'audit trail: signed head checkpoints, linked person keys, committed write probes',
    sql: `
      -- Signed checkpoints of the chain's head (audit/checkpoints.ts), each kept as the exact
      -- line that was also written to AUDIT_CHECKPOINT_DIR, the log and alert destinations.
      CREATE TABLE audit_checkpoints (
        id text PRIMARY KEY,
        seq bigint NOT NULL,
        at text NOT NULL,
        line text NOT NULL
      );
      CREATE INDEX audit_checkpoints_seq ON audit_checkpoints (seq);
      -- What kind of key a shown hash is (identifier, subject-id, link-token) and which person of
      -- the answer it belongs to: keys shown together as one person share a number, so a search
      -- by one finds the lookups that showed the others. Rows written before stay NULL.
      ALTER TABLE lookup_audit_subjects ADD COLUMN kind text;
      ALTER TABLE lookup_audit_subjects ADD COLUMN person integer;
      -- Readiness writes a row here and deletes it, both committed, so a full or read-only disk
      -- shows before a lookup finds it.
      CREATE TABLE audit_write_probes (
        id text PRIMARY KEY,
        at text NOT NULL,
        payload text NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'alert destinations: signing scheme',
    sql: `
      -- How a generic webhook is signed (docs/alerts.md): 'console-signature' (every destination
      -- made before the choice existed) or 'standard-webhooks'; null for Slack-compatible ones.
      ALTER TABLE alert_destinations ADD COLUMN signing text
        CHECK (signing IN ('console-signature', 'standard-webhooks'));
      UPDATE alert_destinations SET signing = 'console-signature' WHERE kind = 'webhook';
    `,
  },
  {
    version: 8,
    name: 'console sessions',
    sql: `
      -- Signed-in console sessions when there is no Redis (auth/sql-session-store.ts), so a
      -- restart signs nobody out. id_hash is the SHA-256 of the session id (base64url): the id
      -- itself is never stored, so a copy of the database signs nobody in. expires_at is the
      -- earlier of the idle and the absolute expiry; expired rows are pruned by it.
      CREATE TABLE console_sessions (
        id_hash text PRIMARY KEY,
        username text NOT NULL,
        created_at text NOT NULL,
        last_seen_at text NOT NULL,
        expires_at text NOT NULL
      );
      CREATE INDEX console_sessions_expires ON console_sessions (expires_at);
    `,
  },
  {
    version: 9,
    name: 'alerts: limit conditions that are firing',
    sql: `
      -- A limit condition (past its threshold, running out) that is firing: alerted once when it
      -- began, quiet until it recovers (the row is then deleted and "resolved" sent), repeated
      -- only after ALERT_REPEAT_HOURS. One row per condition, so replicas agree on one episode.
      CREATE TABLE alert_conditions (
        condition_key text PRIMARY KEY,
        firing_since bigint NOT NULL,
        notified_at bigint NOT NULL
      );
    `,
  },
  {
    version: 10,
    name: 'integration 429s by minute',
    sql: `
      -- The per-minute cap on one integration's distinct 429 occurrences counts them by this.
      CREATE INDEX integration_throttles_by_minute
        ON integration_throttles (integration_id, first_seen);
    `,
  },
  {
    version: 11,
    name: 'the account traffic the what-if replays',
    sql: `
      -- The console's own requests to the platform, per minute and operation template, as
      -- integrations' reports are kept (same retention). Each replica adds its own requests, so
      -- with PostgreSQL every replica's traffic counts once.
      CREATE TABLE console_minutes (
        minute text NOT NULL,
        method text NOT NULL,
        template text NOT NULL,
        requests bigint NOT NULL,
        throttled bigint NOT NULL,
        PRIMARY KEY (minute, method, template)
      );
      -- The whole account per minute and template: the console's requests and every
      -- integration's reports, added in the transaction that stores them. A replay reads this
      -- (one row per endpoint and minute) instead of every integration's rows.
      CREATE TABLE account_minutes (
        minute text NOT NULL,
        method text NOT NULL,
        template text NOT NULL,
        requests bigint NOT NULL,
        throttled bigint NOT NULL,
        PRIMARY KEY (minute, method, template)
      );
      INSERT INTO account_minutes (minute, method, template, requests, throttled)
        SELECT minute, method, template, SUM(requests), SUM(throttled)
        FROM integration_minutes GROUP BY minute, method, template;
      -- Each source's requests per minute, all templates together (an integration's id, or
      -- 'console'): who would have drawn an account limit's refusals is read from here, a quarter
      -- of the rows of the per-template tables.
      CREATE TABLE source_minutes (
        minute text NOT NULL,
        source text NOT NULL,
        requests bigint NOT NULL,
        PRIMARY KEY (minute, source)
      );
      INSERT INTO source_minutes (minute, source, requests)
        SELECT minute, integration_id, SUM(requests)
        FROM integration_minutes GROUP BY minute, integration_id;
    `,
  },
  {
    version: 12,
    name: 'console sessions: how they began',
    sql: `
      -- What the sessions page shows and what ends a session from outside (auth/session-store.ts):
      -- how it was signed in (rows from before are password sessions), the role and person a
      -- provider sign-in gave, a short browser description, the users-file entry's version a
      -- password session is bound to, and the provider session back-channel logout names.
      ALTER TABLE console_sessions ADD COLUMN method text NOT NULL DEFAULT 'password'
        CHECK (method IN ('password', 'provider'));
      UPDATE console_sessions SET method = 'password';
      ALTER TABLE console_sessions ADD COLUMN role text;
      ALTER TABLE console_sessions ADD COLUMN name text;
      ALTER TABLE console_sessions ADD COLUMN email text;
      ALTER TABLE console_sessions ADD COLUMN user_agent text;
      ALTER TABLE console_sessions ADD COLUMN user_version text;
      ALTER TABLE console_sessions ADD COLUMN provider_issuer text;
      ALTER TABLE console_sessions ADD COLUMN provider_sub text;
      ALTER TABLE console_sessions ADD COLUMN provider_sid text;
      ALTER TABLE console_sessions ADD COLUMN provider_auth_time bigint;
      ALTER TABLE console_sessions ADD COLUMN provider_id_token text;
      CREATE INDEX console_sessions_user ON console_sessions (username);
      CREATE INDEX console_sessions_provider ON console_sessions (provider_issuer, provider_sub);
    `,
  },
  {
    version: 13,
    name: 'tokens for scripts',
    sql: `
      -- Tokens for scripts (auth/api-tokens.ts). token_hash is the SHA-256 of the token
      -- (base64url): the token itself is answered once and never stored, so a copy of the database
      -- authenticates nobody. A revoked token's row is deleted.
      CREATE TABLE api_tokens (
        id text PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        name text NOT NULL,
        owner text NOT NULL,
        -- 'users-file' (checked against the users file at every use) or 'provider'.
        owner_source text NOT NULL CHECK (owner_source IN ('users-file', 'provider')),
        role text NOT NULL,
        created_at text NOT NULL,
        expires_at text NOT NULL,
        last_used_at text
      );
      CREATE INDEX api_tokens_owner ON api_tokens (owner);
      -- A lookup made with a token names it beside its owner (the username). Null for sessions,
      -- and the intent's chain payload covers it only when set, so records written before verify
      -- as they did.
      ALTER TABLE lookup_audit ADD COLUMN token_name text;
    `,
  },
  {
    version: 14,
    name: 'back-channel logout tokens seen',
    sql: `
      -- The SHA-256 of each accepted logout token's jti until the token expires: a replay is
      -- refused on every replica sharing the database (docs/identity.md).
      CREATE TABLE logout_tokens_seen (
        jti_hash text PRIMARY KEY,
        expires_at text NOT NULL
      );
    `,
  },
  {
    version: 15,
    name: 'audit trail: administrative changes',
    sql: `
      -- Every change of what the console does (alert destinations, thresholds, integrations,
      -- unlocks, sessions, tokens, blocks, demo controls, exports, sign-ins): who (the person, or
      -- a token and its owner), from where, what, before and after as JSON with secrets replaced
      -- by fingerprints (data-subjects/audit/admin-change-entry.ts). Chained like lookups.
      CREATE TABLE admin_changes (
        id text PRIMARY KEY,
        at text NOT NULL,
        username text NOT NULL,
        token_id text,
        token_name text,
        address text NOT NULL,
        action text NOT NULL,
        target text,
        before_state text,
        after_state text,
        request_id text
      );
      CREATE INDEX admin_changes_newest ON admin_changes (at DESC, id DESC);
      -- The chain gains the kind 'change'; a CHECK cannot be altered in SQLite, so the table is
      -- rebuilt with its entries as they are (their hashes cover their payloads, not the table).
      CREATE TABLE audit_chain_next (
        seq bigint PRIMARY KEY,
        at text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('intent', 'outcome', 'retention', 'change')),
        record_id text,
        payload text NOT NULL,
        prev_hash text NOT NULL,
        hash text NOT NULL
      );
      INSERT INTO audit_chain_next (seq, at, kind, record_id, payload, prev_hash, hash)
        SELECT seq, at, kind, record_id, payload, prev_hash, hash FROM audit_chain;
      DROP TABLE audit_chain;
      ALTER TABLE audit_chain_next RENAME TO audit_chain;
      CREATE INDEX audit_chain_record ON audit_chain (record_id);
      CREATE INDEX audit_chain_at ON audit_chain (at);
    `,
  },
  {
    version: 16,
    name: 'audit trail: the purpose of each lookup',
    sql: `
      -- Why a person was looked up (docs/audit-trail.md): a category of the configured list and a
      -- reference (a ticket or request id, never personal data). Null on records made before, and
      -- on lookups without one (LOOKUP_PURPOSE=optional or off). Covered by the intent's chain
      -- entry from version 2 of its payload on.
      ALTER TABLE lookup_audit ADD COLUMN purpose_category text;
      ALTER TABLE lookup_audit ADD COLUMN purpose_reference text;
      CREATE INDEX lookup_audit_reference ON lookup_audit (purpose_reference, at DESC);
    `,
  },
  {
    version: 17,
    name: 'integrations: removal',
    sql: `
      -- When an admin removed a revoked integration (docs/account-wide-view.md). The row stays so
      -- its recorded minutes keep a name in replays and the account-wide view; its name_key is
      -- freed on removal so the name can be registered again.
      ALTER TABLE integrations ADD COLUMN removed_at text;
    `,
  },
  {
    version: 18,
    name: 'records name their platform connection',
    sql: `
      -- One console serves several platform connections (docs/architecture.md): every record made
      -- for one platform account names it. Rows written before connections existed are the one
      -- connection of that console, 'default'. Console-wide tables (sessions, tokens, the chain
      -- itself, verifications, exports, checkpoints) have none. A lookup's and a change's
      -- connection is covered by their chain entries from the versions written after this one.
      -- An incident is one connection's: its key (the platform's event id, or a generated one)
      -- is unique within its connection, so two accounts' occurrences never merge. The key
      -- cannot be altered in SQLite: the table is rebuilt with its rows as they are.
      CREATE TABLE rate_limit_incidents_next (
        connection text NOT NULL DEFAULT 'default',
        key text NOT NULL,
        event_id text,
        seq bigint NOT NULL,
        first_seen text NOT NULL,
        last_seen text NOT NULL,
        hits integer NOT NULL,
        period text CHECK (period IN ('MINUTE', 'HOUR')),
        requests_allowed integer,
        requests_made integer,
        retry_after_seconds integer,
        blocked_until text NOT NULL,
        rule_id text,
        scope text NOT NULL CHECK (scope IN ('account', 'rule')),
        operation text NOT NULL,
        flags text NOT NULL DEFAULT '[]',
        headers text NOT NULL DEFAULT '{}',
        PRIMARY KEY (connection, key)
      );
      INSERT INTO rate_limit_incidents_next (connection, key, event_id, seq, first_seen, last_seen,
          hits, period, requests_allowed, requests_made, retry_after_seconds, blocked_until,
          rule_id, scope, operation, flags, headers)
        SELECT 'default', key, event_id, seq, first_seen, last_seen, hits, period,
          requests_allowed, requests_made, retry_after_seconds, blocked_until, rule_id, scope,
          operation, flags, headers
        FROM rate_limit_incidents;
      DROP TABLE rate_limit_incidents;
      ALTER TABLE rate_limit_incidents_next RENAME TO rate_limit_incidents;
      -- The stream id stays unique across connections (one counter): each connection's stream
      -- reads its own ids in order.
      CREATE UNIQUE INDEX rate_limit_incidents_seq ON rate_limit_incidents (seq);
      CREATE INDEX rate_limit_incidents_newest
        ON rate_limit_incidents (connection, first_seen DESC, key DESC);
      CREATE INDEX rate_limit_incidents_blocked ON rate_limit_incidents (connection, blocked_until);
      CREATE INDEX rate_limit_incidents_changes ON rate_limit_incidents (connection, seq);
      ALTER TABLE lookup_audit ADD COLUMN connection text NOT NULL DEFAULT 'default';
      CREATE INDEX lookup_audit_connection ON lookup_audit (connection, at DESC, id DESC);
      ALTER TABLE admin_changes ADD COLUMN connection text NOT NULL DEFAULT 'default';
      ALTER TABLE alert_deliveries ADD COLUMN connection text NOT NULL DEFAULT 'default';
      ALTER TABLE integrations ADD COLUMN connection text NOT NULL DEFAULT 'default';
      CREATE INDEX integrations_connection ON integrations (connection);
      -- An integration reports to its key's connection only; its rows repeat that name so the
      -- replay's reads of one connection need no join.
      ALTER TABLE integration_minutes ADD COLUMN connection text NOT NULL DEFAULT 'default';
      CREATE INDEX integration_minutes_connection ON integration_minutes (connection, minute);
      ALTER TABLE integration_throttles ADD COLUMN connection text NOT NULL DEFAULT 'default';
      -- The per-minute sums are summed per connection (two accounts' minutes never add up), so
      -- the connection leads their primary keys; a key cannot be altered in SQLite, so the
      -- tables are rebuilt with their rows as they are.
      CREATE TABLE console_minutes_next (
        connection text NOT NULL DEFAULT 'default',
        minute text NOT NULL,
        method text NOT NULL,
        template text NOT NULL,
        requests bigint NOT NULL,
        throttled bigint NOT NULL,
        PRIMARY KEY (connection, minute, method, template)
      );
      INSERT INTO console_minutes_next (connection, minute, method, template, requests, throttled)
        SELECT 'default', minute, method, template, requests, throttled FROM console_minutes;
      DROP TABLE console_minutes;
      ALTER TABLE console_minutes_next RENAME TO console_minutes;
      CREATE TABLE account_minutes_next (
        connection text NOT NULL DEFAULT 'default',
        minute text NOT NULL,
        method text NOT NULL,
        template text NOT NULL,
        requests bigint NOT NULL,
        throttled bigint NOT NULL,
        PRIMARY KEY (connection, minute, method, template)
      );
      INSERT INTO account_minutes_next (connection, minute, method, template, requests, throttled)
        SELECT 'default', minute, method, template, requests, throttled FROM account_minutes;
      DROP TABLE account_minutes;
      ALTER TABLE account_minutes_next RENAME TO account_minutes;
      CREATE TABLE source_minutes_next (
        connection text NOT NULL DEFAULT 'default',
        minute text NOT NULL,
        source text NOT NULL,
        requests bigint NOT NULL,
        PRIMARY KEY (connection, minute, source)
      );
      INSERT INTO source_minutes_next (connection, minute, source, requests)
        SELECT 'default', minute, source, requests FROM source_minutes;
      DROP TABLE source_minutes;
      ALTER TABLE source_minutes_next RENAME TO source_minutes;
    `,
  },
  {
    version: 19,
    name: 'console sessions: roles per connection',
    sql: `
      -- The roles a provider sign-in gave in named connections only (OIDC_ROLE_MAP role@connection
      -- entries), as a JSON object of connection name to role (auth/sql-session-store.ts). Null on
      -- password sessions (they read the users file) and on sessions from before: their role
      -- applies in every connection.
      ALTER TABLE console_sessions ADD COLUMN connection_roles text;
    `,
  },
];
