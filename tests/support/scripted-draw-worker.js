// A drawing worker for the pool's tests, in the shape of draw-worker.js: it draws nothing, and does
// what the task's text says (`wait 300`, `wait 300 named`, `exit`, `oom`), so a test can hold, kill or starve a worker.
// It waits as bwip-js draws, holding its thread: a worker takes the tasks it holds one at a time.
const held = new Int32Array(new SharedArrayBuffer(4));

export default async function run(task) {
  if (task.kind === 'symbols') return { kind: 'symbols', symbols: [] };
  const text = String(task.options.text);
  if (text === 'exit') process.exit(7);
  if (text === 'oom') {
    const kept = [];
    for (;;) kept.push(new Array(100_000).fill(kept.length));
  }
  if (text.startsWith('wait ')) Atomics.wait(held, 0, 0, Number.parseInt(text.slice(5), 10));
  return { kind: 'svg', markup: text };
}
