import { describe, expect, it } from 'vitest';
import { ZCrawlerRequest } from './crawler-schema';
import {
  buildAuditFormData,
  buildAuditOptions,
  buildCrawlerRequest,
  buildCrawlFormData,
  type CrawlerInput,
  crawlSource,
  defaultCrawlerInput,
  defaultStartUrl,
  mergeFiles,
  type NewAuditInput,
  parseUrlLines,
  validateCrawlerInput,
  validateCrawlInput,
  validateNewAudit,
} from './new-audit-input';

function input(overrides: Partial<NewAuditInput> = {}): NewAuditInput {
  return {
    name: '',
    sitemapUrlsText: '',
    sitemapFiles: [],
    crawlChoice: 'none',
    crawlFile: null,
    crawlUrl: '',
    normalization: 'exact',
    crawlFormat: 'auto',
    columnMap: {},
    crawler: defaultCrawlerInput(),
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
    const base = { sitemapUrlsText: 'https://example.com/', crawlChoice: 'export' } as const;
    const crawlFile = new File(['a,b'], 'crawl.csv');
    expect(validateNewAudit(input({ ...base, crawlFile, crawlUrl: 'https://x.test/c.csv' })).crawl).toMatch(
      /Give one crawl export/,
    );
    expect(validateNewAudit(input({ ...base, crawlFile: new File([], 'e.csv') })).crawl).toMatch(/empty/);
    expect(validateNewAudit(input({ ...base, crawlUrl: 'nope' })).crawl).toMatch(/not a full URL/);
    expect(
      validateNewAudit(input({ ...base, crawlUrl: 'https://x.test/c.csv', crawlFormat: 'csv' })).columnMap,
    ).toMatch(/page URL/);
    // Choosing an export and giving none is a mistake, not a sitemap-only audit.
    expect(validateNewAudit(input({ ...base, crawlFormat: 'csv' })).crawl).toMatch(/Choose the crawl export/);
    // Without a crawl export, the column map does not matter, nor export fields filled before the switch.
    expect(
      validateNewAudit(input({ ...base, crawlChoice: 'none', crawlFormat: 'csv', crawlUrl: 'nope' })),
    ).toEqual({});
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
        crawlChoice: 'export',
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
      input({ sitemapUrlsText: 'https://a.test/', crawlChoice: 'export', crawlUrl: ' https://c.test/x ' }),
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

describe('crawling the site instead of importing', () => {
  const crawler = (overrides: Partial<CrawlerInput> = {}): CrawlerInput => ({
    ...defaultCrawlerInput(),
    ...overrides,
  });
  const site = (overrides: Partial<CrawlerInput> = {}) =>
    input({
      sitemapUrlsText: 'https://www.example.com/',
      crawlChoice: 'crawler',
      crawler: crawler(overrides),
    });

  it('starts from the defaults the API fills in', () => {
    expect(ZCrawlerRequest.parse(buildCrawlerRequest(defaultCrawlerInput()))).toEqual(
      ZCrawlerRequest.parse({}),
    );
    expect(validateNewAudit(site())).toEqual({});
  });

  it('sends the crawler as JSON text in the multipart `crawler` field, never an export', () => {
    const form = buildAuditFormData({
      ...site({
        startUrl: ' https://www.example.com/blog/ ',
        maxPages: ' 500 ',
        maxDepth: '3',
        concurrencyPerHost: '4',
        render: true,
      }),
      // Filled before switching to the crawler: left behind, since the API takes one or the other.
      crawlFile: new File(['{}'], 'old.jsonl'),
      crawlUrl: 'https://files.test/crawl.csv',
      crawlFormat: 'csv',
      normalization: 'lenient',
    });
    const sent = JSON.parse(form.get('crawler') as string);
    expect(sent).toEqual({
      mode: 'site',
      startUrl: 'https://www.example.com/blog/',
      maxPages: 500,
      maxDepth: 3,
      concurrencyPerHost: 4,
      render: true,
    });
    // What the route reads back is what was asked for, not a default.
    expect(ZCrawlerRequest.parse(sent)).toEqual(sent);
    expect(form.has('crawl')).toBe(false);
    expect(form.has('crawlUrl')).toBe(false);
    expect(JSON.parse(form.get('options') as string)).toEqual({ normalization: 'lenient' });
    expect(form.getAll('sitemapUrl')).toEqual(['https://www.example.com/']);
  });

  it('leaves the start URL to the server when empty, and list mode sends neither it nor a depth', () => {
    expect(buildCrawlerRequest(crawler({ startUrl: '  ' }))).not.toHaveProperty('startUrl');
    const list = buildCrawlerRequest(crawler({ mode: 'list', startUrl: 'https://x.test/', maxDepth: 'x' }));
    expect(list).toEqual({ mode: 'list', maxPages: 50_000, concurrencyPerHost: 2, render: false });
    expect(ZCrawlerRequest.safeParse(list).success).toBe(true);
    // An export chosen instead sends no crawler.
    expect(
      buildAuditFormData(input({ crawlChoice: 'export', crawlUrl: 'https://c.test/' })).has('crawler'),
    ).toBe(false);
    expect(buildAuditFormData(input({ crawlChoice: 'none' })).has('crawler')).toBe(false);
  });

  it('says which setting is out of range, in the API’s limits', () => {
    expect(validateCrawlerInput(crawler({ maxPages: '0' })).crawlerMaxPages).toBe(
      'Max pages must be a whole number from 1 to 1,000,000.',
    );
    expect(validateCrawlerInput(crawler({ maxPages: '1000001' })).crawlerMaxPages).toMatch(/1,000,000/);
    expect(validateCrawlerInput(crawler({ maxPages: '' })).crawlerMaxPages).toMatch(/whole number/);
    expect(validateCrawlerInput(crawler({ maxPages: '2.5' })).crawlerMaxPages).toMatch(/whole number/);
    expect(validateCrawlerInput(crawler({ maxPages: '1e3' })).crawlerMaxPages).toMatch(/whole number/);
    expect(validateCrawlerInput(crawler({ maxDepth: '101' })).crawlerMaxDepth).toBe(
      'Max depth must be a whole number from 0 to 100.',
    );
    expect(validateCrawlerInput(crawler({ maxDepth: '0' }))).toEqual({});
    expect(validateCrawlerInput(crawler({ concurrencyPerHost: '9' })).crawlerConcurrency).toMatch(/1 to 8/);
    expect(validateCrawlerInput(crawler({ startUrl: 'example.com' })).crawlerStartUrl).toMatch(
      /start URL.*not a full URL/,
    );
    // Uploaded sitemaps give no site root: a site crawl needs its start URL, a list crawl does not.
    const uploaded = {
      ...site(),
      sitemapUrlsText: '',
      sitemapFiles: [xmlFile()],
    };
    expect(validateNewAudit(uploaded).crawlerStartUrl).toMatch(
      /Enter a start URL: the sitemaps are uploaded/,
    );
    expect(validateNewAudit({ ...uploaded, crawler: crawler({ startUrl: 'https://x.test/' }) })).toEqual({});
    expect(validateNewAudit({ ...uploaded, crawler: crawler({ mode: 'list' }) })).toEqual({});
    // What list mode does not use is not checked.
    expect(validateCrawlerInput(crawler({ mode: 'list', startUrl: 'nope', maxDepth: '-1' }))).toEqual({});
    // The New audit form shows them only when the crawler is chosen.
    expect(validateNewAudit(site({ maxPages: '0' })).crawlerMaxPages).toMatch(/Max pages/);
    expect(validateNewAudit({ ...site({ maxPages: '0' }), crawlChoice: 'none' })).toEqual({});
  });

  it('every value the form accepts, the API accepts, and the edges it refuses, the API refuses', () => {
    for (const [field, values] of [
      ['maxPages', ['1', '1000000', '0', '1000001']],
      ['maxDepth', ['0', '100', '101']],
      ['concurrencyPerHost', ['1', '8', '0', '9']],
    ] as const) {
      for (const value of values) {
        const typed = crawler({ [field]: value });
        const isValidHere = Object.keys(validateCrawlerInput(typed)).length === 0;
        const sent = { ...buildCrawlerRequest(typed), [field]: Number(value) };
        expect([field, value, isValidHere]).toEqual([field, value, ZCrawlerRequest.safeParse(sent).success]);
      }
    }
  });

  it('names the site root the crawl starts from when no start URL is given', () => {
    expect(defaultStartUrl('https://www.example.com/blog/sitemap.xml?x=1\nhttps://other.test/')).toBe(
      'https://www.example.com/',
    );
    expect(defaultStartUrl('nope\nhttp://shop.test:8080/robots.txt')).toBe('http://shop.test:8080/');
    expect(defaultStartUrl('  ')).toBeNull();
  });
});
