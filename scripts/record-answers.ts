// `npm run docs:answers`: what each operation answers its example request, recorded from a server
// on loopback fixtures into src/composition/recorded-answers.ts, where the reference shows them.
// Run it after changing an answer's shape or an example request; a test says when it is due.
import { join } from 'node:path';
import { recordAnswers, writeRecordedAnswers } from '../tests/support/answer-recording.js';
import { openReferenceWorld } from '../tests/support/reference-world.js';

const world = await openReferenceWorld();
try {
  const answers = await recordAnswers(world);
  const file = await writeRecordedAnswers(answers, join(import.meta.dirname, '..'));
  console.log(`${Object.keys(answers).length} operations' answers written to ${file}`);
} finally {
  await world.close();
}
