// Runs one voice model install in its own process so a test can kill -9 it mid-download.
import { installVoiceModel } from '../dist/index.js';

const [home, modelId] = process.argv.slice(2);
try {
  const record = await installVoiceModel(home, modelId);
  process.stdout.write(JSON.stringify(record) + '\n');
} catch (err) {
  process.stdout.write(JSON.stringify({ code: err.code, message: err.message }) + '\n');
}
