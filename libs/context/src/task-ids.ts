// Task ids are `T` + a number, zero-padded to three digits like the reference (`T001`, `T1000`).

const TASK_ID = /^T(\d+)$/;

export function taskNumber(id: string): number {
  const m = TASK_ID.exec(id);
  return m ? Number(m[1]) : -1;
}

export function isTaskId(id: string): boolean {
  return TASK_ID.test(id);
}

export function formatTaskId(n: number): string {
  return `T${String(n).padStart(3, '0')}`;
}

/** The next id is one past the highest ever seen among current tasks. */
export function nextTaskId(ids: Iterable<string>): string {
  let max = 0;
  for (const id of ids) max = Math.max(max, taskNumber(id));
  return formatTaskId(max + 1);
}
