/**
 * @module
 * The bench's processes: every server under test and the load generator run in a child process of their
 * own (so neither shares an event loop with the other or with the harness), started with tsx, talking
 * to the harness over Node's IPC channel: the child says `ready` with what it started, then answers
 * commands by id.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_ROOT = fileURLToPath(new URL('..', import.meta.url));

interface ReadyMessage<Info> {
  type: 'ready';
  info: Info;
}
interface AnswerMessage {
  type: 'answer';
  id: number;
  result?: unknown;
  error?: string;
}
interface CommandMessage {
  type: 'command';
  id: number;
  name: string;
  args: unknown;
}

/** A child process of the bench that announced itself ready. */
export interface BenchChild<Info> {
  /** What the child reported when it became ready (its URL, its port, …). */
  info: Info;
  pid: number;
  /** Sends a command and resolves with the child's answer. */
  ask<T>(name: string, args?: unknown): Promise<T>;
  /** SIGTERM, then SIGKILL after two seconds; resolves when the process is gone. */
  stop(): Promise<void>;
}

/**
 * Starts `script` (a file under `bench/src`) in its own Node process and waits until it is ready.
 *
 * @example
 * const sandbox = await startChild<{ url: string }>('servers/sandbox-server.ts', { offerCount: 2000 });
 */
export async function startChild<Info>(
  script: string,
  options: unknown,
  {
    timeoutMs = 120_000,
    nodeArgs = [] as string[],
    stdout = 'inherit' as 'inherit' | 'ignore',
    env = {} as Record<string, string>,
  } = {},
): Promise<BenchChild<Info>> {
  const child: ChildProcess = spawn(
    serverNode(),
    [
      ...nodeArgs,
      '--import',
      'tsx',
      fileURLToPath(new URL(script, import.meta.url)),
      optionsArgument(options),
    ],
    { cwd: BENCH_ROOT, stdio: ['ignore', stdout, 'inherit', 'ipc'], env: { ...process.env, ...env } },
  );
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    for (const waiter of pending.values())
      waiter.reject(new Error(`${script} exited (${code ?? signal}) before answering`));
    pending.clear();
  });
  const info = await new Promise<Info>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} was not ready within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with code ${code} before it was ready`));
    });
    child.on('message', (raw) => {
      const message = raw as ReadyMessage<Info> | AnswerMessage;
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.info);
      } else if (message.type === 'answer') {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error !== undefined) waiter?.reject(new Error(`${script}: ${message.error}`));
        else waiter?.resolve(message.result);
      }
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    info,
    pid: child.pid ?? -1,
    ask<T>(name: string, args?: unknown) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ type: 'command', id, name, args } satisfies CommandMessage);
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(force);
    },
  };
}

/** Handlers of a child's commands, by name. */
export type CommandHandlers = Record<string, (args: never) => unknown>;

/**
 * The child's side: read the options the harness passed, and once started, report `info` and answer
 * commands with `handlers`. The child exits on SIGTERM or when the harness goes away.
 */
export function childOptions<T>(): T {
  const raw = process.argv[2];
  if (raw === undefined) throw new Error('a bench child needs its options as a JSON argument');
  if (!raw.startsWith('@')) return JSON.parse(raw) as T;
  const file = raw.slice(1);
  const text = readFileSync(file, 'utf8');
  rmSync(file, { force: true });
  return JSON.parse(text) as T;
}

/**
 * The Node.js binary of the children: `BENCH_NODE` when set (the servers on the runtime production runs,
 * e.g. a Node.js 24 from `scripts/system-deps.mjs --bench`), else the harness's own.
 */
function serverNode(): string {
  return process.env.BENCH_NODE || process.execPath;
}

/** Options longer than one argument may be (128 KiB: the bare server's bodies) travel in a file (`@path`). */
let optionsFiles = 0;
function optionsArgument(options: unknown): string {
  const json = JSON.stringify(options);
  if (json.length < 64 * 1024) return json;
  optionsFiles += 1;
  const file = join(tmpdir(), `esim-bench-options-${process.pid}-${optionsFiles}.json`);
  writeFileSync(file, json);
  return `@${file}`;
}

let profiler: Session | undefined;

/**
 * Commands every child answers: `cpu` (user + system CPU time used so far, µs), and `profileStart` /
 * `profileStop` (a V8 CPU profile of just the window between them, written to the given file).
 */
const BUILT_IN_COMMANDS = {
  cpu(): number {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  },
  async profileStart(): Promise<void> {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  },
  async profileStop({ file }: { file: string }): Promise<void> {
    if (!profiler) throw new Error('no profile was started');
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    profiler.disconnect();
    profiler = undefined;
  },
};

/** Announce readiness and serve the harness's commands (plus `cpu`, answered by every child). */
export function serveParent(info: unknown, handlers: CommandHandlers, onStop?: () => Promise<void>): void {
  const send = (message: ReadyMessage<unknown> | AnswerMessage) => process.send?.(message);
  process.on('message', (raw) => {
    const message = raw as CommandMessage;
    if (message.type !== 'command') return;
    const handler = (BUILT_IN_COMMANDS as CommandHandlers)[message.name] ?? handlers[message.name];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown command ${message.name}`);
        return handler(message.args as never);
      })
      .then(
        (result) => send({ type: 'answer', id: message.id, result }),
        (error: unknown) =>
          send({
            type: 'answer',
            id: message.id,
            error: error instanceof Error ? error.message : String(error),
          }),
      );
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), 1_500).unref();
    (onStop?.() ?? Promise.resolve()).finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  send({ type: 'ready', info });
}
