// Child for crash.test.ts: replace MEMORY.md with numbered versions forever, printing each
// version once its write has returned. The parent kills it with SIGKILL mid-loop.
import { GroupMemory } from '../dist/index.js';

const [groupDir] = process.argv.slice(2);
const memory = new GroupMemory({ groupDir, title: () => 'crash' });
const body = 'x'.repeat(256 * 1024);
for (let i = 1; ; i++) {
  await memory.write({ target: 'memory', mode: 'replace', content: `version ${i}\n${body}\nend ${i}\n` });
  process.stdout.write(`${i}\n`);
}
