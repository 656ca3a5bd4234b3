// What a user opening an exported file in a spreadsheet depends on: columns that line up, line
// breaks that stay inside their cell, and no cell that runs as a formula.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { csvFileName, downloadCsv, formatCsvCell, toCsv } from './csv';
import { itMapsEach } from './test-support/each-case';

describe('formatCsvCell', () => {
  it('leaves plain text alone', () => {
    expect(formatCsvCell('Consent given')).toBe('Consent given');
    expect(formatCsvCell(42)).toBe('42');
  });

  it('quotes a cell holding a comma', () => {
    expect(formatCsvCell('Consent, withdrawn')).toBe('"Consent, withdrawn"');
  });

  it('quotes a cell holding a quote and doubles the quote', () => {
    expect(formatCsvCell('The "main" purpose')).toBe('"The ""main"" purpose"');
  });

  it('quotes a cell holding a line break (LF, CR or CRLF)', () => {
    expect(formatCsvCell('line one\nline two')).toBe('"line one\nline two"');
    expect(formatCsvCell('line one\r\nline two')).toBe('"line one\r\nline two"');
    expect(formatCsvCell('a\rb')).toBe('"a\rb"');
  });

  itMapsEach('neutralises the formula prefix of %j', formatCsvCell, [
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
  ]);

  itMapsEach('neutralises a formula behind leading whitespace or a line break: %j', formatCsvCell, [
    ['  =1+1', "'  =1+1"],
    ['\n=cmd', `"'\n=cmd"`],
    ['\r\n+1', `"'\r\n+1"`],
    [' \u00a0@SUM(A1)', "' \u00a0@SUM(A1)"],
    ['\uff1d1+1', "'\uff1d1+1"],
  ]);

  it('leaves text that merely starts with a space alone', () => {
    expect(formatCsvCell('  plain')).toBe('  plain');
  });

  it('neutralises a leading tab', () => {
    expect(formatCsvCell('\t=cmd')).toBe("'\t=cmd");
  });

  it('neutralises a leading carriage return and still quotes the cell', () => {
    expect(formatCsvCell('\r=cmd')).toBe(`"'\r=cmd"`);
  });

  it('neutralises then quotes a formula that also holds a comma and quotes', () => {
    expect(formatCsvCell('=HYPERLINK("http://x", "y")')).toBe(`"'=HYPERLINK(""http://x"", ""y"")"`);
  });

  it('exports a negative number as a number, but neutralises the same characters as text', () => {
    expect(formatCsvCell(-5)).toBe('-5');
    expect(formatCsvCell(-0.5)).toBe('-0.5');
    expect(formatCsvCell('-5')).toBe("'-5");
  });

  it('does not touch a formula character that is not first', () => {
    expect(formatCsvCell('a=b')).toBe('a=b');
  });

  it('exports missing values as empty cells', () => {
    expect(formatCsvCell(undefined)).toBe('');
    expect(formatCsvCell(null)).toBe('');
  });
});

describe('toCsv', () => {
  it('writes a header row and CRLF after every line', () => {
    const csv = toCsv(
      ['code', 'name'],
      [
        [1, 'Consent given'],
        [2, 'Consent, withdrawn'],
      ],
    );
    expect(csv).toBe('code,name\r\n1,Consent given\r\n2,"Consent, withdrawn"\r\n');
  });

  it('keeps the column count when values are missing', () => {
    const csv = toCsv(['code', 'name', 'module'], [[undefined, 'x', null]]);
    expect(csv).toBe('code,name,module\r\n,x,\r\n');
  });

  it('writes only the header for no rows', () => {
    expect(toCsv(['a', 'b'], [])).toBe('a,b\r\n');
  });
});

describe('csvFileName', () => {
  it('names the file after the local date', () => {
    expect(csvFileName('event-types', new Date(2024, 0, 5, 23, 59))).toBe(
      'event-types-2024-01-05.csv',
    );
  });
});

describe('downloadCsv', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('downloads a UTF-8 CSV blob under the given name and cleans up', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:test';
    });
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    // jsdom cannot download; the click's receiver is the link the browser would follow.
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});

    downloadCsv('event-types-2024-01-05.csv', 'code\r\n1\r\n');
    const clicked = click.mock.contexts[0] as HTMLAnchorElement | undefined;

    expect(clicked?.download).toBe('event-types-2024-01-05.csv');
    expect(clicked?.href).toBe('blob:test');
    // The temporary link does not stay in the page.
    expect(document.querySelector('a[download]')).toBeNull();
    const blob = created[0];
    expect(blob?.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await blob!.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe('code\r\n1\r\n');
    expect(revoke).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(revoke).toHaveBeenCalledWith('blob:test');
  });
});
