/**
 * @module
 * Loaded with `--import` into a BFF process under test only: on the IPC message `memory` it collects garbage
 * (the process runs with `--expose-gc`) and answers `{ rss, heapUsed }`. The BFF itself exposes nothing.
 */
process.on('message', (message) => {
  if (message !== 'memory' || process.send === undefined) return;
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  collect?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.send({ rss, heapUsed });
});
// The IPC channel alone must not keep the process alive once the server stops.
process.channel?.unref();
