import { describe, expect, it } from 'vitest';
import {
  buildAuditFormData,
  buildAuditOptions,
  buildCrawlFormData,
  crawlSource,
  mergeFiles,
  type NewAuditInput,
  parseUrlLines,
  validateCrawlInput,
  validateNewAudit,
} from './new-audit-input';

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

  it('says what the server would refuse in a name or a URL', () => {
    const base = { sitemapUrlsText: 'https://example.com/' };
    expect(validateNewAudit(input({ ...base, name: 'a\u0000b' })).name).toMatch(/must not contain a NUL/);
    expect(validateNewAudit(input({ sitemapUrlsText: 'https://example.com/\u0000' })).sitemaps).toMatch(
      /NUL/,
    );
    expect(validateNewAudit(input({ ...base, name: 'Карта сайта' }))).toEqual({});
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

describe('a crawl added to an audit later', () => {
  it('needs the export, and a URL column for a mapped CSV', () => {
    expect(validateCrawlInput(input(), true).crawl).toMatch(/Choose the crawl export/);
    // On the New audit form the crawl is optional.
    expect(validateCrawlInput(input())).toEqual({});
    const csv = input({ crawlFile: new File(['a'], 'c.csv'), crawlFormat: 'csv' });
    expect(validateCrawlInput(csv, true).columnMap).toMatch(/page URL/);
    expect(validateCrawlInput({ ...csv, columnMap: { url: 'Address' } }, true)).toEqual({});
  });

  it('sends the file and the format options, never a normalization (the audit keeps its own)', () => {
    const file = new File(['a'], 'c.csv');
    const form = buildCrawlFormData(
      input({ crawlFile: file, crawlFormat: 'csv', columnMap: { url: ' Address ', status: '' } }),
    );
    expect((form.get('crawl') as File).name).toBe('c.csv');
    expect(JSON.parse(form.get('options') as string)).toEqual({
      crawlFormat: 'csv',
      columnMap: { url: 'Address' },
    });
    const byUrl = buildCrawlFormData(input({ crawlUrl: ' https://c.test/x.csv ' }));
    expect(byUrl.get('crawlUrl')).toBe('https://c.test/x.csv');
    expect(JSON.parse(byUrl.get('options') as string)).toEqual({});
  });
});
