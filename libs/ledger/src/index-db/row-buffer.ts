import type Database from 'better-sqlite3';

const ROWS_PER_STATEMENT = 64;

/**
 * Buffers rows for one table and inserts them with one multi-row INSERT: on index rebuilds of
 * millions of events the per-statement call overhead, not SQLite's B-tree work, dominated. A
 * partial buffer (a group-commit batch of a few events) uses a statement prepared for exactly
 * its row count, so indexing one batch is one statement per table, not one per row.
 */
export class RowBuffer {
  private readonly byRows = new Map<number, Database.Statement>();
  private readonly head: string;
  private readonly row: string;
  private values: unknown[] = [];
  private rows = 0;

  constructor(
    private readonly db: Database.Database,
    insert: string,
    table: string,
    columns: readonly string[],
  ) {
    this.row = `(${columns.map(() => '?').join(', ')})`;
    this.head = `${insert} INTO ${table}(${columns.join(', ')}) VALUES `;
    this.statement(ROWS_PER_STATEMENT);
  }

  private statement(rows: number): Database.Statement {
    let stmt = this.byRows.get(rows);
    if (!stmt) {
      stmt = this.db.prepare(this.head + Array(rows).fill(this.row).join(', '));
      this.byRows.set(rows, stmt); // at most ROWS_PER_STATEMENT distinct statements
    }
    return stmt;
  }

  push(...row: unknown[]): void {
    for (const v of row) this.values.push(v);
    this.rows += 1;
    if (this.rows === ROWS_PER_STATEMENT) this.flush();
  }

  flush(): void {
    if (this.rows > 0) this.statement(this.rows).run(this.values);
    this.values = [];
    this.rows = 0;
  }
}
