/**
 * The embedded store's value codec: a value read back as the bytes it was just written or read as is answered
 * without inflating it again, and one whose row holds other bytes (written by another release or path, or a
 * write that lost its compare-and-set) is inflated, never answered from what is kept.
 */
import { describe, expect, it } from 'vitest';
import { createValueCodec, decodeValue, encodeValue } from './sqlite-value-encoding';

const record = (status: string) =>
  JSON.stringify({ id: 'chk_1', status, note: 'a checkout of some size '.repeat(20) });

function countingCodec(size = 10) {
  let inflated = 0;
  const codec = createValueCodec(size, (stored) => {
    inflated += 1;
    return decodeValue(stored);
  });
  return { codec, inflated: () => inflated };
}

describe('the embedded store’s value codec', () => {
  it('reads back what was just written, and what was just read, without inflating it again', () => {
    const { codec, inflated } = countingCodec();
    const stored = codec.encode('checkout:chk_1', record('placing'));
    expect(stored).toBeInstanceOf(Uint8Array);
    // A row read is a copy of the bytes: equal, not the same buffer.
    const row = Uint8Array.from(stored as Uint8Array);
    expect(codec.decode('checkout:chk_1', row)).toBe(record('placing'));
    expect(codec.decode('checkout:chk_1', Uint8Array.from(row))).toBe(record('placing'));
    expect(inflated()).toBe(0);
    const other = encodeValue(record('ready')) as Uint8Array;
    expect(codec.decode('checkout:chk_2', other)).toBe(record('ready'));
    expect(codec.decode('checkout:chk_2', Uint8Array.from(other))).toBe(record('ready'));
    expect(inflated()).toBe(1);
  });

  it('inflates a row that holds other bytes than those kept for its key', () => {
    const { codec, inflated } = countingCodec();
    // Written here, but the compare-and-set lost: the row holds another writer's value.
    codec.encode('checkout:chk_1', record('placing'));
    const theirs = encodeValue(record('cancelled'));
    expect(codec.decode('checkout:chk_1', theirs)).toBe(record('cancelled'));
    expect(inflated()).toBe(1);
    // Text rows (short values, earlier releases) read as they are.
    expect(codec.decode('checkout:chk_1', 'short')).toBe('short');
  });

  it('keeps at most its size of values, the least recently used going first', () => {
    const { codec, inflated } = countingCodec(2);
    const rows = ['a', 'b', 'c'].map((id) => codec.encode(`checkout:${id}`, record(id)) as Uint8Array);
    expect(codec.decode('checkout:a', rows[0])).toBe(record('a'));
    expect(inflated()).toBe(1);
    expect(codec.decode('checkout:c', rows[2])).toBe(record('c'));
    expect(inflated()).toBe(1);
  });
});
