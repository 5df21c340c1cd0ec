// @ts-check
// The background index writer: applies index ops (index-ops.ts) for acknowledged batches on its
// own SQLite connection, so a writer's thread never stalls on B-tree inserts between two
// fsyncs. Plain JavaScript because the library's tests run its TypeScript sources directly and
// Node 20 cannot load TypeScript in a worker thread; it is bundled as is into dist.
//
// Protocol (index-writer-thread.ts): {type:'index', seq, path, batches:[{start,end,count,ops}]}
// and {type:'close', seq, path}. After each message shared[0] = seq and a notify, whatever the
// outcome: the owner may be blocked in Atomics.wait on it; shared[1] = 2 (and a notify) when
// the thread ends. {type:'retire'} (the owner saw no work for a while and forgot the thread)
// closes every connection and ends the thread. A failure leaves bytes unindexed, which the owner
// catches up from the JSONL (the index is never authority).
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const DONE_SEQ = 0;
const STATE = 1;
const DEAD = 2;
/** @type {Int32Array} */
const shared = new Int32Array(workerData.shared);
process.on('exit', () => {
  Atomics.store(shared, STATE, DEAD);
  Atomics.notify(shared, DONE_SEQ);
});

const Database = createRequire(import.meta.url)('better-sqlite3');
/** @type {Map<string, { db: any, statements: Map<string, any>, run: (batches: any[]) => number }>} */
const connections = new Map();

/** @param {string} path */
function connect(path) {
  let c = connections.get(path);
  if (c) return c;
  const db = new Database(path);
  // The same settings as the owner's connection (LedgerIndex.openUnchecked).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('busy_timeout = 10000');
  // Bounded like the owner's (INDEX_CACHE_KIB, passed in): resident memory must not grow with the index.
  db.pragma(`cache_size = -${Number(workerData.cacheKiB) || 4096}`);
  db.pragma('temp_store = MEMORY');
  const statements = new Map();
  const getMeta = db.prepare('SELECT value FROM meta WHERE key = ?');
  const setMeta = db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  const maxOrd = db.prepare('SELECT MAX(ord) AS m FROM events');
  /** Index the batches that continue the high-water mark; returns how many events it indexed. */
  const run = db.transaction((/** @type {any[]} */ batches) => {
    let hwm = Number(getMeta.get('active_hwm')?.value ?? 0);
    let base = maxOrd.get()?.m ?? 0;
    let indexed = 0;
    for (const b of batches) {
      if (hwm >= b.end) continue; // already indexed by a read that scanned the file
      // Bytes of another process come first: the owner's scan indexes them and ours after them.
      if (hwm !== b.start) break;
      for (const op of b.ops) {
        for (const at of op.ords) op.params[at] += base;
        let stmt = statements.get(op.sql);
        if (!stmt) {
          stmt = db.prepare(op.sql);
          statements.set(op.sql, stmt);
        }
        stmt.run(op.params);
      }
      base += b.count;
      indexed += b.count;
      hwm = b.end;
    }
    setMeta.run('active_hwm', String(hwm));
    return indexed;
  });
  c = { db, statements, run: (batches) => run.immediate(batches) };
  connections.set(path, c);
  return c;
}

parentPort?.on('message', (msg) => {
  if (msg.type === 'retire') {
    for (const c of connections.values()) c.db.close();
    connections.clear();
    process.exit(0); // in a worker: ends this thread only
  }
  let reply;
  try {
    if (msg.type === 'index') {
      reply = { seq: msg.seq, path: msg.path, indexed: connect(msg.path).run(msg.batches) };
    } else if (msg.type === 'close') {
      connections.get(msg.path)?.db.close();
      connections.delete(msg.path);
      reply = { seq: msg.seq, path: msg.path, indexed: 0 };
    }
  } catch (err) {
    reply = { seq: msg.seq, path: msg.path, error: err instanceof Error ? err.message : String(err) };
  } finally {
    Atomics.store(shared, DONE_SEQ, msg.seq);
    Atomics.notify(shared, DONE_SEQ);
  }
  parentPort?.postMessage(reply);
});
