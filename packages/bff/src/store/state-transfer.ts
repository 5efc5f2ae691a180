/**
 * @module
 * The BFF's state as lines of JSON, to move it between stores (the embedded store to Redis when a second
 * instance is added, and back): every live value with its version and remaining time to live, every counter
 * with its window, every work-queue item and partition pause, and every entry book whole (the funding ledger's
 * holds and the month's spend: one record a book, imported only into a target that has no such book, so that its
 * totals stay the sum of its entries). The first line names the format; each later line
 * is one record. Reading and writing each store's own layout is in `sqlite-state-transfer.ts` and
 * `redis-state-transfer.ts`.
 */
import { z } from 'zod';

/** The first line of an export. */
export const StateHeaderSchema = z.strictObject({
  type: z.literal('esim-bff-state'),
  formatVersion: z.literal(1),
  exportedAt: z.string(),
  from: z.enum(['embedded', 'redis']),
});

const ttlMs = z.number().int().positive();
const name = z.string().min(1);

/** One record of an export. */
export const StateRecordSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('entry'),
    key: name,
    value: z.string(),
    version: z.number().int().positive(),
    ttlMs,
  }),
  z.strictObject({ type: z.literal('counter'), key: name, count: z.number().int(), ttlMs }),
  z.strictObject({
    type: z.literal('queue-item'),
    queue: name,
    id: name,
    partition: z.string(),
    dueAtMs: z.number().int(),
  }),
  z.strictObject({
    type: z.literal('queue-pause'),
    queue: name,
    partition: z.string(),
    untilMs: z.number().int(),
  }),
  z.strictObject({
    type: z.literal('book'),
    name,
    /** Each entry's value by id. */
    entries: z.record(z.string(), z.string()),
    /** The deadline (epoch ms) of each entry that has one. */
    deadlines: z.record(z.string(), z.number().int()),
    totals: z.record(z.string(), z.number().int()),
    marks: z.array(z.string()),
  }),
]);

export type StateHeader = z.infer<typeof StateHeaderSchema>;
export type StateRecord = z.infer<typeof StateRecordSchema>;

/** What an import wrote and what it left alone (a key already in the target is kept, never overwritten). */
export interface ImportCounts {
  imported: Record<StateRecord['type'], number>;
  /** Records whose key (or queue id) the target already held. */
  kept: number;
}

/** A store the state can be read from and written to. */
export interface StateTransfer {
  /** The header and then every live record, in batches. */
  exportState(): AsyncIterable<StateRecord>;
  /** Write records that are not in the target yet. */
  importState(records: AsyncIterable<StateRecord>): Promise<ImportCounts>;
}

/** An empty tally. */
export function emptyCounts(): ImportCounts {
  return { imported: { entry: 0, counter: 0, 'queue-item': 0, 'queue-pause': 0, book: 0 }, kept: 0 };
}

/** Parse an export's lines: the header first, then records; a bad line stops with its number and the reason. */
export async function* parseStateLines(lines: AsyncIterable<string>): AsyncIterable<StateRecord> {
  let number = 0;
  let header: StateHeader | null = null;
  for await (const line of lines) {
    number += 1;
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new Error(`line ${number} of the state is not JSON`);
    }
    if (header === null) {
      const parsed = StateHeaderSchema.safeParse(json);
      if (!parsed.success) {
        throw new Error(
          `line ${number} is not the header of a state export ({"type":"esim-bff-state","formatVersion":1,…})`,
        );
      }
      header = parsed.data;
      continue;
    }
    const parsed = StateRecordSchema.safeParse(json);
    if (!parsed.success) {
      throw new Error(
        `line ${number} of the state is not a record: ${parsed.error.issues[0]?.message ?? ''}`,
      );
    }
    yield parsed.data;
  }
  if (header === null) throw new Error('the state is empty: no header line');
}

/** The header line of an export from `from`. */
export function stateHeader(from: StateHeader['from'], now: number = Date.now()): StateHeader {
  return { type: 'esim-bff-state', formatVersion: 1, exportedAt: new Date(now).toISOString(), from };
}
