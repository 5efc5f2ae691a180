/**
 * The CSV export's lines and stream: RFC 4180 quoting, a formula never started by a field, amounts as decimals,
 * and a stream that reads the ledger a page at a time as the client takes it — never the whole period at once.
 */
import type { PartnerSale } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import type { ListPage, ListPosition } from '../store/index-pages';
import { CSV_HEADER, csvField, csvLine, salesCsvStream } from './sales-csv';

const sale = (checkoutId: string, overrides: Partial<PartnerSale> = {}): PartnerSale => ({
  checkoutId,
  widgetId: 'shop-pay',
  kind: 'issue',
  status: 'ready',
  plan: { offerId: 'off_1', title: 'Europe, 5 GB "plus"', destinationCode: 'EU', destinationName: 'Europe' },
  amount: { amountMinor: 1299, currency: 'USD' },
  wholesale: { amountMinor: 5, currency: 'USD' },
  paymentReference: 'pay_1',
  orderId: 'ord_1',
  orderStatus: 'completed',
  esimId: 'esim_1',
  failureCode: null,
  createdAt: '2026-10-31T23:58:00.000Z',
  paidAt: '2026-11-01T00:01:00.000Z',
  readyAt: '2026-11-01T00:01:05.000Z',
  refundedAt: null,
  updatedAt: '2026-11-01T00:01:05.000Z',
  ...overrides,
});

describe('a line of the export', () => {
  it('quotes a field with a quote, a comma or a line break, and only those', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField(null)).toBe('');
  });

  it('lets no field start a spreadsheet formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@sum')).toBe("'@sum");
  });

  it('writes amounts as decimals beside their currency, and times as UTC ISO', () => {
    const line = csvLine(sale('chk_1', { paymentReference: '-ref' }));
    expect(line).toBe(
      'chk_1,shop-pay,issue,ready,off_1,"Europe, 5 GB ""plus""",EU,Europe,USD,12.99,USD,0.05,\'-ref,ord_1,' +
        'completed,esim_1,,2026-10-31T23:58:00.000Z,2026-11-01T00:01:00.000Z,2026-11-01T00:01:05.000Z,\r\n',
    );
    expect(CSV_HEADER.split(',')).toHaveLength(line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).length);
  });
});

describe('the export stream', () => {
  it('reads the next page only once the client has taken the one before', async () => {
    const pages: ListPage<PartnerSale>[] = [
      { items: [sale('chk_1'), sale('chk_2')], next: { score: 2, id: 'chk_2' } },
      // A page that found nothing within its bound still goes on.
      { items: [], next: { score: 1, id: 'chk_x' } },
      { items: [sale('chk_3')], next: null },
    ];
    const asked: (ListPosition | null)[] = [];
    const stream = salesCsvStream(async (after) => {
      asked.push(after);
      const page = pages[asked.length - 1];
      if (page === undefined) throw new Error('read past the last page');
      return page;
    });
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe(CSV_HEADER);
    // The header taken: at most the first page was read ahead.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(asked.length).toBeLessThanOrEqual(1);
    const first = decoder.decode((await reader.read()).value);
    expect(
      first
        .split('\r\n')
        .filter(Boolean)
        .map((line) => line.split(',')[0]),
    ).toEqual(['chk_1', 'chk_2']);
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += decoder.decode(chunk.value);
    }
    expect(rest).toBe(csvLine(sale('chk_3')));
    expect(asked).toEqual([null, { score: 2, id: 'chk_2' }, { score: 1, id: 'chk_x' }]);
  });

  it('ends in error when a page cannot be read, never as a whole-looking short file', async () => {
    const stream = salesCsvStream(async () => {
      throw new Error('store unavailable');
    });
    await expect(new Response(stream).text()).rejects.toThrow();
  });
});
