import type Database from 'better-sqlite3';

const ROWS_PER_STATEMENT = 64;

/**
 * Buffers rows for one table and inserts them with a 64-row INSERT: on index rebuilds of
 * millions of events the per-statement call overhead, not SQLite's B-tree work, dominated.
 */
export class RowBuffer {
  private readonly one: Database.Statement;
  private readonly many: Database.Statement;
  private values: unknown[] = [];
  private rows = 0;

  constructor(db: Database.Database, insert: string, table: string, columns: readonly string[]) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    const head = `${insert} INTO ${table}(${columns.join(', ')}) VALUES `;
    this.one = db.prepare(head + row);
    this.many = db.prepare(head + Array(ROWS_PER_STATEMENT).fill(row).join(', '));
  }

  push(...row: unknown[]): void {
    for (const v of row) this.values.push(v);
    this.rows += 1;
    if (this.rows === ROWS_PER_STATEMENT) this.flush();
  }

  flush(): void {
    if (this.rows === ROWS_PER_STATEMENT) this.many.run(this.values);
    else if (this.rows > 0) {
      const width = this.values.length / this.rows;
      for (let i = 0; i < this.rows; i++) this.one.run(this.values.slice(i * width, (i + 1) * width));
    }
    this.values = [];
    this.rows = 0;
  }
}
