/**
 * Schema of the derived index `ts-index.sqlite3`. Bump INDEX_SCHEMA_VERSION on any change: a
 * different version is treated like a corrupt index and rebuilt from the JSONL.
 */
export const INDEX_SCHEMA_VERSION = '7';

export const INDEX_DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- ord = 1-based append order; src = segment seq, 0 for the active ledger.jsonl. Only what
-- locating a record needs: every column is written once per event on the append path.
CREATE TABLE IF NOT EXISTS events (
  ord INTEGER PRIMARY KEY, id TEXT NOT NULL, src INTEGER NOT NULL, off INTEGER NOT NULL, len INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS events_id ON events(id);
-- No (src, ord) index: the active file's rows are exactly the ords above meta sealed_max_ord
-- (append order puts every sealed event first), so that index only cost a B-tree insert per event.
DROP INDEX IF EXISTS events_src;
-- One row per (addressed token | "from:<by>") of each chat.message.
CREATE TABLE IF NOT EXISTS audience (
  token TEXT NOT NULL, ord INTEGER NOT NULL, mode TEXT NOT NULL, by TEXT NOT NULL,
  PRIMARY KEY (token, ord)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS audience_mode ON audience(token, mode, ord);
CREATE TABLE IF NOT EXISTS chat (
  ord INTEGER PRIMARY KEY, by TEXT NOT NULL, mode TEXT NOT NULL, reply_to TEXT);
CREATE INDEX IF NOT EXISTS chat_reply ON chat(reply_to, ord) WHERE reply_to IS NOT NULL;
CREATE TABLE IF NOT EXISTS actor_gen (actor_id TEXT PRIMARY KEY, ord INTEGER NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS mail_reads (
  actor_id TEXT NOT NULL, ord INTEGER NOT NULL, event_id TEXT NOT NULL, target_ord INTEGER,
  PRIMARY KEY (actor_id, ord)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS mail_reads_event ON mail_reads(event_id);
-- A mail.read always follows its target, so MAX(target_ord) above a generation start is one
-- index probe instead of a scan over every read the actor ever made.
CREATE INDEX IF NOT EXISTS mail_reads_target ON mail_reads(actor_id, target_ord);
CREATE TABLE IF NOT EXISTS cancels (source_id TEXT NOT NULL, ord INTEGER NOT NULL, by TEXT NOT NULL, PRIMARY KEY (source_id, ord)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS delivery (
  source_id TEXT NOT NULL, actor_id TEXT NOT NULL, state TEXT NOT NULL, delivery_id TEXT NOT NULL,
  transport TEXT NOT NULL, ord INTEGER NOT NULL, PRIMARY KEY (source_id, actor_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS delivery_state ON delivery(state);
-- Latest x.cccc.delivery_confirmation per (source, recipient): was the accepted PTY delivery
-- followed by the runtime's own prompt-submit hook?
CREATE TABLE IF NOT EXISTS delivery_confirmation (
  source_id TEXT NOT NULL, actor_id TEXT NOT NULL, state TEXT NOT NULL, delivery_id TEXT NOT NULL,
  ord INTEGER NOT NULL, PRIMARY KEY (source_id, actor_id)) WITHOUT ROWID;
-- Every event's kind: ledger_tail / ledger_search by kind and recovery's chat.read lookups walk
-- one kind's ords instead of the whole ledger. Each kind's rows are appended at its right edge.
CREATE TABLE IF NOT EXISTS event_kinds (kind TEXT NOT NULL, ord INTEGER NOT NULL, PRIMARY KEY (kind, ord)) WITHOUT ROWID;
-- system.notify events and the actor each targets (NULL: none), for redelivery at actor start.
CREATE TABLE IF NOT EXISTS notices (ord INTEGER PRIMARY KEY, target TEXT);
CREATE TABLE IF NOT EXISTS client_ids (
  by TEXT NOT NULL, client_id TEXT NOT NULL, ord INTEGER NOT NULL, PRIMARY KEY (by, client_id)) WITHOUT ROWID;
-- Sealed segments the rows refer to (line count, on-disk size) to detect files changed behind our back.
CREATE TABLE IF NOT EXISTS sources (src INTEGER PRIMARY KEY, lines INTEGER NOT NULL, bytes INTEGER NOT NULL);
-- Lines that are not events (malformed, torn then terminated): reported, never dropped silently.
CREATE TABLE IF NOT EXISTS damage (src INTEGER NOT NULL, off INTEGER NOT NULL, len INTEGER NOT NULL, reason TEXT NOT NULL, PRIMARY KEY (src, off));
`;

export const ALL_TABLES = ['meta', 'events', 'audience', 'chat', 'actor_gen', 'mail_reads', 'cancels', 'delivery', 'delivery_confirmation', 'event_kinds', 'notices', 'client_ids', 'sources', 'damage'];
