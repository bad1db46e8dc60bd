// The table's markup is its contract with the looks (.table, .spot-items) and with screen readers: one
// caption, header cells with scope, sortable ones as a button under aria-sort, each cell named for the phone
// card, and one row saying there is nothing.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { type DataColumn, DataTable } from './data-table';

type Row = { id: number; url: string; status: number };
const COLUMNS: DataColumn<Row>[] = [
  { id: 'url', header: 'URL', cellClassName: 'spot-items__url', cell: (row) => row.url },
  {
    id: 'status',
    header: 'HTTP',
    label: 'Status',
    isNumeric: true,
    cellProps: (row) => ({ title: `HTTP ${row.status}` }),
    cell: (row) => row.status,
    sort: { direction: 'descending', onSort: vi.fn(), testId: 'sort-status' },
  },
];

const render = (props: Partial<Parameters<typeof DataTable<Row>>[0]>) =>
  renderToStaticMarkup(
    createElement(DataTable<Row>, {
      columns: COLUMNS,
      rows: [],
      rowKey: (row: Row) => row.id,
      ...props,
    }),
  );

describe('DataTable', () => {
  it('writes a caption, scoped header cells and a sortable header carrying aria-sort', () => {
    const html = render({ caption: { text: 'Checked rows' }, className: 'spot-items', testId: 'items' });
    expect(html).toContain('<table class="spot-items" data-testid="items">');
    expect(html).toContain('<caption class="visually-hidden">Checked rows</caption>');
    expect(html).toContain('<th scope="col">URL</th>');
    expect(html).toMatch(
      /<th scope="col" class="num" aria-sort="descending"><button type="button" class="[^"]*sortButton[^"]*" data-testid="sort-status">HTTP<span [^>]*data-direction="descending">▼<\/span><\/button><\/th>/,
    );
  });

  it('names each cell for the phone card, from the header or the column label', () => {
    const html = render({
      rows: [{ id: 1, url: 'https://a.example/x', status: 404 }],
      rowProps: (row) => ({ 'data-testid': 'row', 'data-status': row.status }),
    });
    expect(html).toContain('<tr data-testid="row" data-status="404">');
    expect(html).toContain('<td data-label="URL" class="spot-items__url">https://a.example/x</td>');
    expect(html).toContain('<td data-label="Status" class="num" title="HTTP 404">404</td>');
  });

  it('says there is nothing in one row across the table, and only when asked', () => {
    expect(render({ empty: 'No row checked yet.' })).toMatch(
      /<tbody><tr><td colSpan="2" class="[^"]*empty[^"]*">No row checked yet.<\/td><\/tr><\/tbody>/i,
    );
    expect(render({})).toContain('<tbody></tbody>');
  });

  it('puts the table in its scrolling box when given one', () => {
    expect(render({ wrapClassName: 'spot-items-wrap' })).toMatch(/^<div class="spot-items-wrap"><table/);
    expect(render({})).toMatch(/^<table/);
  });
});
