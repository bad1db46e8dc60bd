import { describe, expect, it } from 'vitest';
import {
  buildAuditFormData,
  buildAuditOptions,
  buildFileTree,
  crawlSource,
  decodeHead,
  fileLabel,
  filterTree,
  flattenVisible,
  formatBytes,
  formatCount,
  formatDateTime,
  formatDuration,
  formatRelativeTime,
  initiallyExpanded,
  kindLabel,
  mergeFiles,
  type NewAuditInput,
  nodeKey,
  parseCsvHeader,
  parseUrlLines,
  phaseLabel,
  progressPercent,
  statusLabel,
  statusTone,
  suggestColumnMap,
  type TreeInput,
  type TreeNode,
  validateNewAudit,
} from './utils';

type F = TreeInput & { name: string };

function shape(nodes: TreeNode<F>[]): unknown[] {
  return nodes.map((node) =>
    node.children.length ? { [node.file.name]: shape(node.children) } : node.file.name,
  );
}

describe('buildFileTree', () => {
  it('nests children under their parents and keeps input order', () => {
    const files: F[] = [
      { id: 1, parentId: null, name: 'robots' },
      { id: 2, parentId: 1, name: 'index' },
      { id: 5, parentId: 2, name: 'b' },
      { id: 3, parentId: 2, name: 'a' },
      { id: 4, parentId: null, name: 'upload' },
    ];
    const tree = buildFileTree(files);
    expect(shape(tree)).toEqual([{ robots: [{ index: ['b', 'a'] }] }, 'upload']);
    expect(tree[0]?.descendants).toBe(3);
    expect(tree[0]?.children[0]?.descendants).toBe(2);
    expect(tree[1]?.descendants).toBe(0);
  });

  it('puts orphans whose parent is missing at the root, in order', () => {
    const files: F[] = [
      { id: 10, parentId: 99, name: 'orphan' },
      { id: 11, parentId: null, name: 'root' },
      { id: 12, parentId: 11, name: 'child' },
    ];
    expect(shape(buildFileTree(files))).toEqual(['orphan', { root: ['child'] }]);
  });

  it('orders siblings by position when given, then by input order', () => {
    const files: F[] = [
      { id: 1, parentId: null, name: 'root' },
      { id: 2, parentId: 1, name: 'second', position: 2 },
      { id: 3, parentId: 1, name: 'first', position: 1 },
      { id: 4, parentId: 1, name: 'also-second', position: 2 },
    ];
    expect(shape(buildFileTree(files))).toEqual([{ root: ['first', 'second', 'also-second'] }]);
  });

  it('never drops files that form a parent cycle or point at themselves', () => {
    const files: F[] = [
      { id: 1, parentId: 2, name: 'x' },
      { id: 2, parentId: 1, name: 'y' },
      { id: 3, parentId: 3, name: 'self' },
    ];
    const tree = buildFileTree(files);
    const count = (nodes: TreeNode<F>[]): number =>
      nodes.reduce((sum, node) => sum + 1 + count(node.children), 0);
    expect(count(tree)).toBe(3);
    expect(tree.map((node) => node.file.name)).toContain('self');
  });

  it('handles thousands of files without recursion trouble', () => {
    const files: F[] = [{ id: 0, parentId: null, name: 'index' }];
    for (let i = 1; i <= 5000; i += 1) files.push({ id: i, parentId: 0, name: `s${i}` });
    const tree = buildFileTree(files);
    expect(tree).toHaveLength(1);
    expect(tree[0]?.children).toHaveLength(5000);
    expect(tree[0]?.descendants).toBe(5000);
  });

  it('returns an empty list for no files', () => {
    expect(buildFileTree([])).toEqual([]);
  });
});

describe('initiallyExpanded', () => {
  it('opens the top level of small trees but not huge branches', () => {
    const files: F[] = [
      { id: 1, parentId: null, name: 'small' },
      { id: 2, parentId: 1, name: 'leaf' },
      { id: 3, parentId: null, name: 'big' },
    ];
    for (let i = 100; i < 400; i += 1) files.push({ id: i, parentId: 3, name: `c${i}` });
    const open = initiallyExpanded(buildFileTree(files), 1, 200);
    expect([...open]).toEqual([1]);
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [10 * 1024 + 700, '11 KiB'],
    [5 * 1024 * 1024, '5 MiB'],
    [1024 * 1024 - 1, '1 MiB'],
    [3.25 * 1024 ** 3, '3.3 GiB'],
  ])('%d → %s', (bytes, expected) => {
    expect(formatBytes(bytes)).toBe(expected);
  });

  it('shows a dash for unknown sizes', () => {
    expect(formatBytes(null)).toBe('—');
    expect(formatBytes(undefined)).toBe('—');
    expect(formatBytes(-1)).toBe('—');
  });
});

describe('formatCount', () => {
  it('groups thousands', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(null)).toBe('—');
  });
});

describe('progressPercent', () => {
  it('is null (indeterminate) when the total is unknown', () => {
    expect(progressPercent({ done: 3, total: 0 })).toBeNull();
  });
  it('floors and clamps', () => {
    expect(progressPercent({ done: 1, total: 3 })).toBe(33);
    expect(progressPercent({ done: 5, total: 4 })).toBe(100);
    expect(progressPercent({ done: 0, total: 10 })).toBe(0);
  });
});

describe('dates', () => {
  it('formats an instant in a given time zone', () => {
    expect(formatDateTime('2026-11-30T12:05:00Z', 'UTC')).toBe('30 Nov 2026, 12:05');
    expect(formatDateTime('not a date')).toBe('—');
    expect(formatDateTime(null)).toBe('—');
  });

  it('describes how long ago something happened', () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(formatRelativeTime('2026-11-30T11:59:50Z', now)).toBe('just now');
    expect(formatRelativeTime('2026-11-30T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelativeTime('2026-11-30T09:00:00Z', now)).toBe('3 h ago');
    expect(formatRelativeTime('2026-11-29T11:00:00Z', now)).toBe('1 day ago');
    expect(formatRelativeTime('2026-11-20T12:00:00Z', now)).toBe('10 days ago');
  });

  it('formats durations', () => {
    expect(formatDuration('2026-01-01T00:00:00Z', '2026-01-01T00:00:04.2Z')).toBe('4.2 s');
    expect(formatDuration('2026-01-01T00:00:00Z', '2026-01-01T00:03:05Z')).toBe('3 min 5 s');
    expect(formatDuration('2026-01-01T00:00:00Z', '2026-01-01T02:04:00Z')).toBe('2 h 4 min');
    expect(formatDuration('2026-01-01T00:00:00Z', null)).toBeNull();
  });
});

describe('labels', () => {
  it('labels and colours every audit and file status', () => {
    expect(statusLabel('queued')).toBe('Queued');
    expect(statusLabel('partial')).toBe('Partial');
    expect(statusLabel('ok')).toBe('OK');
    expect(statusLabel('mystery')).toBe('Mystery');
    expect(statusTone('queued')).toBe('neutral');
    expect(statusTone('running')).toBe('info');
    expect(statusTone('succeeded')).toBe('success');
    expect(statusTone('partial')).toBe('warning');
    expect(statusTone('failed')).toBe('danger');
    expect(statusTone('mystery')).toBe('neutral');
  });

  it('labels phases, kinds and files', () => {
    expect(phaseLabel('sitemaps')).toBe('Reading sitemaps');
    expect(phaseLabel('queued (retrying)')).toBe('Queued (retrying)');
    expect(kindLabel('index')).toBe('Sitemap index');
    expect(kindLabel(null)).toBe('Unknown type');
    expect(fileLabel({ id: 7, url: null, uploadName: 'a.xml' })).toBe('a.xml');
    expect(fileLabel({ id: 7, url: 'https://x.test/s.xml', uploadName: null })).toBe('https://x.test/s.xml');
    expect(fileLabel({ id: 7, url: null, uploadName: null })).toBe('File #7');
  });
});

function input(overrides: Partial<NewAuditInput> = {}): NewAuditInput {
  return {
    name: '',
    sitemapUrlsText: '',
    sitemapFiles: [],
    crawlFile: null,
    crawlUrl: '',
    normalization: 'exact',
    crawlFormat: 'auto',
    columnMap: {},
    ...overrides,
  };
}

const xmlFile = (name = 'sitemap.xml', body = '<urlset/>') => new File([body], name, { type: 'text/xml' });

describe('parseUrlLines', () => {
  it('trims, drops blanks and duplicates', () => {
    expect(parseUrlLines(' https://a.test/ \r\n\n https://b.test\nhttps://a.test/')).toEqual([
      'https://a.test/',
      'https://b.test',
    ]);
  });
});

describe('validateNewAudit', () => {
  it('requires at least one sitemap source', () => {
    expect(validateNewAudit(input()).sitemaps).toMatch(/at least one sitemap/);
    expect(validateNewAudit(input({ sitemapUrlsText: '  \n ' })).sitemaps).toMatch(/at least one sitemap/);
    expect(validateNewAudit(input({ sitemapUrlsText: 'https://example.com/' }))).toEqual({});
    expect(validateNewAudit(input({ sitemapFiles: [xmlFile()] }))).toEqual({});
  });

  it('rejects relative or non-http URLs', () => {
    expect(validateNewAudit(input({ sitemapUrlsText: 'example.com/sitemap.xml' })).sitemaps).toMatch(
      /not a full URL/,
    );
    expect(validateNewAudit(input({ sitemapUrlsText: 'ftp://example.com/s.xml' })).sitemaps).toMatch(/http/);
  });

  it('rejects files the server will not accept as sitemaps', () => {
    expect(validateNewAudit(input({ sitemapFiles: [xmlFile('crawl.csv')] })).sitemapFiles).toMatch(
      /crawl\.csv/,
    );
    expect(validateNewAudit(input({ sitemapFiles: [xmlFile('s.xml', '')] })).sitemapFiles).toMatch(/empty/);
    expect(validateNewAudit(input({ sitemapFiles: [xmlFile('s.xml.gz')] })).sitemapFiles).toBeUndefined();
  });

  it('checks the chosen crawl source and the column map', () => {
    const base = { sitemapUrlsText: 'https://example.com/' };
    const crawlFile = new File(['a,b'], 'crawl.csv');
    expect(validateNewAudit(input({ ...base, crawlFile, crawlUrl: 'https://x.test/c.csv' })).crawl).toMatch(
      /Give one crawl export/,
    );
    expect(validateNewAudit(input({ ...base, crawlFile: new File([], 'e.csv') })).crawl).toMatch(/empty/);
    expect(validateNewAudit(input({ ...base, crawlUrl: 'nope' })).crawl).toMatch(/not a full URL/);
    expect(
      validateNewAudit(input({ ...base, crawlUrl: 'https://x.test/c.csv', crawlFormat: 'csv' })).columnMap,
    ).toMatch(/page URL/);
    // Without a crawl export, the column map does not matter.
    expect(validateNewAudit(input({ ...base, crawlFormat: 'csv' }))).toEqual({});
    expect(
      validateNewAudit(
        input({
          ...base,
          crawlUrl: 'https://x.test/c.csv',
          crawlFormat: 'csv',
          columnMap: { url: 'Address' },
        }),
      ),
    ).toEqual({});
  });
});

describe('buildAuditOptions / buildAuditFormData', () => {
  it('sends only the options that apply', () => {
    expect(buildAuditOptions(input({ normalization: 'lenient', crawlFormat: 'jsonl' }))).toEqual({
      normalization: 'lenient',
    });
    expect(buildAuditOptions(input({ crawlUrl: 'https://c.test/', crawlFormat: 'auto' }))).toEqual({
      normalization: 'exact',
    });
    expect(
      buildAuditOptions(
        input({
          crawlFile: new File(['x'], 'c.csv'),
          crawlFormat: 'csv',
          columnMap: { url: ' Address ', status: '', canonical: 'Canon' },
        }),
      ),
    ).toEqual({
      normalization: 'exact',
      crawlFormat: 'csv',
      columnMap: { url: 'Address', canonical: 'Canon' },
    });
  });

  it('builds the multipart fields the API expects', async () => {
    const crawl = new File(['{}'], 'crawl.jsonl');
    const form = buildAuditFormData(
      input({
        name: '  My audit ',
        sitemapUrlsText: 'https://a.test/\nhttps://b.test/sitemap.xml',
        sitemapFiles: [xmlFile('one.xml'), xmlFile('two.xml.gz')],
        crawlFile: crawl,
        crawlFormat: 'jsonl',
      }),
    );
    expect(form.get('name')).toBe('My audit');
    expect(form.getAll('sitemapUrl')).toEqual(['https://a.test/', 'https://b.test/sitemap.xml']);
    expect(form.getAll('sitemap').map((file) => (file as File).name)).toEqual(['one.xml', 'two.xml.gz']);
    expect((form.get('crawl') as File).name).toBe('crawl.jsonl');
    expect(form.get('crawlUrl')).toBeNull();
    expect(JSON.parse(form.get('options') as string)).toEqual({
      normalization: 'exact',
      crawlFormat: 'jsonl',
    });
  });

  it('omits an empty name so the server picks one', () => {
    const form = buildAuditFormData(
      input({ sitemapUrlsText: 'https://a.test/', crawlUrl: ' https://c.test/x ' }),
    );
    expect(form.has('name')).toBe(false);
    expect(form.get('crawlUrl')).toBe('https://c.test/x');
    expect(form.has('crawl')).toBe(false);
  });
});

describe('mergeFiles', () => {
  it('adds new files and skips ones already chosen', () => {
    const a = new File(['a'], 'a.xml', { lastModified: 1 });
    const aAgain = new File(['a'], 'a.xml', { lastModified: 1 });
    const b = new File(['bb'], 'b.xml', { lastModified: 1 });
    expect(mergeFiles([a], [aAgain, b]).map((file) => file.name)).toEqual(['a.xml', 'b.xml']);
  });
});

describe('crawlSource', () => {
  it('names the single crawl source or flags both', () => {
    const file = new File(['x'], 'c.csv');
    expect(crawlSource({ crawlFile: null, crawlUrl: ' ' })).toBe('none');
    expect(crawlSource({ crawlFile: file, crawlUrl: '' })).toBe('file');
    expect(crawlSource({ crawlFile: null, crawlUrl: 'https://c.test/' })).toBe('url');
    expect(crawlSource({ crawlFile: file, crawlUrl: 'https://c.test/' })).toBe('both');
  });
});

describe('filterTree', () => {
  it('keeps matches and their ancestors only', () => {
    const files: F[] = [
      { id: 1, parentId: null, name: 'index' },
      { id: 2, parentId: 1, name: 'ok' },
      { id: 3, parentId: 1, name: 'bad' },
      { id: 4, parentId: null, name: 'other' },
    ];
    const filtered = filterTree(buildFileTree(files), (file) => file.name === 'bad');
    expect(shape(filtered)).toEqual([{ index: ['bad'] }]);
    expect(filtered[0]?.descendants).toBe(1);
  });
});

describe('flattenVisible', () => {
  const files: F[] = [
    { id: 1, parentId: null, name: 'index' },
    { id: 2, parentId: 1, name: 'a' },
    { id: 3, parentId: 1, name: 'b' },
    { id: 4, parentId: 1, name: 'c' },
    { id: 5, parentId: 3, name: 'b1' },
    { id: 6, parentId: null, name: 'upload' },
  ];
  const tree = buildFileTree(files);
  const names = (rows: ReturnType<typeof flattenVisible<F>>) =>
    rows.map((row) =>
      row.type === 'node' ? `${row.level}:${row.node.file.name}` : `${row.level}:+${row.hidden}`,
    );

  it('shows only roots when nothing is expanded', () => {
    expect(
      names(
        flattenVisible(
          tree,
          () => false,
          () => 100,
        ),
      ),
    ).toEqual(['1:index', '1:upload']);
  });

  it('walks expanded nodes depth-first with levels and set positions', () => {
    const rows = flattenVisible(
      tree,
      () => true,
      () => 100,
    );
    expect(names(rows)).toEqual(['1:index', '2:a', '2:b', '3:b1', '2:c', '1:upload']);
    const c = rows[4];
    expect(c?.type === 'node' && [c.posInSet, c.setSize, c.parentKey]).toEqual([3, 3, nodeKey(1)]);
  });

  it('caps each group and adds a "show more" row for the rest', () => {
    const rows = flattenVisible(
      tree,
      (id) => id === 1,
      (group) => (group === '1' ? 1 : 100),
    );
    expect(names(rows)).toEqual(['1:index', '2:a', '2:+2', '1:upload']);
    const more = rows[2];
    expect(more?.type === 'more' && more.groupKey).toBe('1');
  });
});

describe('CSV header sniffing', () => {
  it('decodes UTF-8 and UTF-16 files with a byte-order mark', () => {
    const utf8 = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('"Address","Status Code"')]);
    expect(decodeHead(utf8)).toBe('"Address","Status Code"');
    const text = '"URL"\t"HTTP status code"';
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i += 1) utf16[2 + i * 2] = text.charCodeAt(i);
    expect(decodeHead(utf16)).toBe(text);
  });

  it('reads quoted, tab-separated and preamble-prefixed headers', () => {
    expect(
      parseCsvHeader('"Address","Content Type","Status Code"\n"https://a.test/","text/html","200"'),
    ).toEqual(['Address', 'Content Type', 'Status Code']);
    expect(parseCsvHeader('URL\tTitle\t"Depth"\n')).toEqual(['URL', 'Title', 'Depth']);
    expect(parseCsvHeader('"All Inlinks"\n"Type","Source","Destination"\n')).toEqual([
      'Type',
      'Source',
      'Destination',
    ]);
    expect(parseCsvHeader('"a, b";c;d')).toEqual(['a, b', 'c', 'd']);
    expect(parseCsvHeader('"Say ""hi""",x')).toEqual(['Say "hi"', 'x']);
    expect(parseCsvHeader('just one line of prose')).toEqual([]);
  });

  it('suggests a column map from common crawler header names', () => {
    expect(
      suggestColumnMap([
        'Address',
        'Content Type',
        'Status Code',
        'Indexability',
        'Canonical Link Element 1',
        'Crawl Depth',
        'Redirect URL',
        'Crawl Timestamp',
      ]),
    ).toEqual({
      url: 'Address',
      status: 'Status Code',
      canonical: 'Canonical Link Element 1',
      indexable: 'Indexability',
      crawledAt: 'Crawl Timestamp',
      depth: 'Crawl Depth',
      redirectUrl: 'Redirect URL',
      contentType: 'Content Type',
    });
    expect(suggestColumnMap(['URL', 'HTTP status code', 'Title'])).toEqual({
      url: 'URL',
      status: 'HTTP status code',
    });
    expect(suggestColumnMap(['Title', 'Inlinks'])).toEqual({});
  });
});
