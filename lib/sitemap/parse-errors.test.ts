import { describe, expect, it } from 'vitest';
import { collect, gzip, locs, urlset, warningCodes } from '@/lib/test-support/sitemap-sources';

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://x.example/&lol9;</loc></url></urlset>`;

describe('DOCTYPE / ENTITY declarations (XXE protection)', () => {
  it('rejects billion laughs at the DOCTYPE, before any entity can expand', async () => {
    const result = await collect(BILLION_LAUGHS);
    expect(result.error?.code).toBe('xml_doctype');
    expect(result.error?.message).toBe('DOCTYPE/ENTITY declarations are not allowed (XXE protection)');
    expect(result.entries).toEqual([]);
  });

  it('rejects an external entity without reading it', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${urlset('<url><loc>&xxe;</loc></url>').replace(/^<\?xml[^>]*>/, '')}`;
    const result = await collect(xxe);
    expect(result.error?.code).toBe('xml_doctype');
    expect(result.entries).toEqual([]);
  });

  it('rejects a plain DOCTYPE too', async () => {
    const result = await collect('<!DOCTYPE urlset SYSTEM "sitemap.dtd"><urlset/>');
    expect(result.error?.code).toBe('xml_doctype');
  });

  it('fails on an undeclared entity instead of guessing', async () => {
    const result = await collect(urlset('<url><loc>https://x.example/&nbsp;</loc></url>'));
    expect(result.error?.code).toBe('xml_malformed');
  });
});

describe('character encodings', () => {
  const withLoc = (loc: string) => urlset(`<url><loc>${loc}</loc></url>`);

  it('rejects invalid UTF-8 with a clear message, after the entries of earlier chunks', async () => {
    const head = Buffer.from(urlset(3000).replace('</urlset>\n', ''));
    const bad = Buffer.concat([
      head,
      Buffer.from('<url><loc>https://x.example/'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('</loc></url></urlset>'),
    ]);
    const result = await collect(bad, { chunkSize: 4096 });
    expect(result.error?.code).toBe('invalid_utf8');
    expect(result.error?.message).toMatch(/^the file is not valid UTF-8/);
    expect(result.entries.length).toBeGreaterThan(2500);
    expect(result.entries.length).toBeLessThanOrEqual(3000);
  });

  it('decodes a declared ISO-8859-1 file (é as byte E9)', async () => {
    const xml = withLoc('https://x.example/caf\u00e9').replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    const result = await collect(Buffer.from(xml, 'latin1'), { chunkSize: 5 });
    expect(locs(result)).toEqual(['https://x.example/café']);
  });

  it('lets a UTF-8 BOM win over a contradicting declaration', async () => {
    const xml = withLoc('https://x.example/café').replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    const result = await collect(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)]));
    expect(locs(result)).toEqual(['https://x.example/café']);
  });

  it.each([['utf16le'], ['utf16be']])('decodes UTF-16 XML with a BOM (%s)', async (order) => {
    const xml = withLoc('https://x.example/日本').replace('encoding="UTF-8"', 'encoding="UTF-16"');
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]);
    const bytes = order === 'utf16le' ? le : Buffer.from(le).swap16();
    const result = await collect(bytes, { chunkSize: 3 });
    expect(locs(result)).toEqual(['https://x.example/日本']);
    expect(result.stats.warnings).toEqual([]);
  });

  it('decodes as UTF-8 when an ASCII-readable file claims UTF-16, with a warning', async () => {
    const xml = withLoc('https://x.example/a').replace('encoding="UTF-8"', 'encoding="UTF-16"');
    const result = await collect(xml);
    expect(locs(result)).toEqual(['https://x.example/a']);
    expect(warningCodes(result)).toEqual(['encoding_mismatch']);
  });

  it('rejects an unknown encoding label', async () => {
    const result = await collect(withLoc('https://x.example/a').replace('UTF-8', 'x-klingon'));
    expect(result.error?.code).toBe('bad_encoding');
    expect(result.error?.message).toContain('x-klingon');
  });

  it('accepts a BOM and blank lines before <?xml, keeping line numbers true', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`\n \r\n\t${urlset(2)}`)]);
    const result = await collect(bytes, { chunkSize: 2 });
    expect(locs(result)).toEqual(['https://example.com/p/1', 'https://example.com/p/2']);
    expect(result.entries.map((entry) => entry.line)).toEqual([5, 6]);
  });
});

describe('gzip failures and size limits', () => {
  it('keeps the entries decoded before a truncated gzip stream, then throws gzip_error', async () => {
    const zipped = gzip(urlset(20_000));
    const result = await collect(zipped.subarray(0, Math.floor(zipped.length * 0.6)), { chunkSize: 8192 });
    expect(result.error?.code).toBe('gzip_error');
    expect(result.error?.message).toContain('truncated');
    expect(result.entries.length).toBeGreaterThan(1000);
    expect(result.entries.length).toBeLessThan(20_000);
    expect(result.entries.every((entry, i) => entry.loc === `https://example.com/p/${i + 1}`)).toBe(true);
    expect(result.stats.gzip).toBe(true);
  });

  it('reports a CRC mismatch as gzip_error after the entries zlib delivered', async () => {
    const zipped = Buffer.from(gzip(urlset(20_000)));
    zipped[zipped.length - 6] = (zipped[zipped.length - 6] ?? 0) ^ 0xff; // break the CRC-32 trailer
    const result = await collect(zipped);
    expect(result.error?.code).toBe('gzip_error');
    expect(result.error?.message).toContain('incorrect data check');
    // zlib withholds only its last output block (at most 64 KiB) when the trailer check fails.
    expect(result.entries.length).toBeGreaterThan(19_000);
    expect(result.entries.every((entry, i) => entry.loc === `https://example.com/p/${i + 1}`)).toBe(true);
  });

  it('stops at maxUncompressedBytes for plain files', async () => {
    const result = await collect(urlset(100), { maxUncompressedBytes: 1000, chunkSize: 256 });
    expect(result.error?.code).toBe('too_large');
    expect(result.stats.uncompressedBytes).toBeLessThanOrEqual(1256);
  });

  it('stops at maxUncompressedBytes while gunzipping', async () => {
    const result = await collect(gzip(urlset(10_000)), { maxUncompressedBytes: 100_000 });
    expect(result.error?.code).toBe('too_large');
    expect(result.error?.message).toMatch(/^once decompressed/);
    expect(result.entries.length).toBeLessThan(10_000);
  });

  it('prefixes error messages with fileName when given', async () => {
    const result = await collect('', { fileName: 'sitemap.xml' });
    expect(result.error?.message).toBe('sitemap.xml: the file is empty');
  });
});

describe('not a sitemap / empty', () => {
  it.each([
    ['<html><body>Not found</body></html>'],
    ['<!doctype html>\n<html lang="en"></html>'],
    ['<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd">\n<html/>'],
    ['\n\n  <!DOCTYPE HTML><HTML></HTML>'],
  ])('recognises an HTML page: %s', async (html) => {
    const result = await collect(html);
    expect(result.error?.code).toBe('not_a_sitemap');
    expect(result.error?.message).toBe('an HTML page was served where a sitemap was expected');
  });

  it('rejects another XML root', async () => {
    const result = await collect('<?xml version="1.0"?><catalog><book/></catalog>');
    expect(result.error?.code).toBe('not_a_sitemap');
    expect(result.error?.message).toContain('<catalog>');
  });

  it.each([
    ['0 bytes', '', 'the file is empty'],
    ['whitespace only', ' \n\r\n\t ', 'the file is empty (only whitespace)'],
    ['a BOM only', '\ufeff', 'the file is empty (only whitespace)'],
  ])('reports %s as empty', async (_name, text, message) => {
    const result = await collect(text);
    expect(result.error?.code).toBe('empty');
    expect(result.error?.message).toBe(message);
  });

  it('reports an empty gzip as empty after decompression', async () => {
    const result = await collect(gzip(''));
    expect(result.error?.code).toBe('empty');
    expect(result.error?.message).toBe('the file is empty after decompression');
  });

  it('accepts a valid empty urlset with 0 entries', async () => {
    const result = await collect(urlset(''));
    expect(result.error).toBeNull();
    expect(result.entries).toEqual([]);
    expect(result.stats).toMatchObject({ kind: 'urlset', entries: 0, warnings: [] });
  });
});

// saxes reads a bare `&` as the start of an entity name up to the next `;`: the error used to name
// the line where that read ended (the end of the file: line 17 here), not the `&` in line 9.
describe('an unescaped & is reported at its own line', () => {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...Array.from({ length: 6 }, (_, i) => `<url><loc>https://e.example/${i}</loc></url>`),
    '<url><loc>https://e.example/a?x=1&y=2</loc></url>',
    ...Array.from({ length: 7 }, (_, i) => `<url><loc>https://e.example/b${i}</loc></url>`),
    '</urlset>',
  ];
  const file = lines.join('\n');
  const withLaterReference = file.replace('/b0<', '/b0?a=1&amp;b=2<');
  const long = file.replace('</urlset>', '<url><loc>https://e.example/z</loc></url>\n'.repeat(3000));

  it.each([
    ['no later `;` (the end of the file ends the read)', file, undefined, { line: 9 }],
    ['a later &amp; on the next line', withLaterReference, undefined, { line: 9, column: 34 }],
    ['the same, read 5 bytes at a time', withLaterReference, 5, { line: 9 }],
    ['a `;` on the same line', file.replace('&y=2', '&y=2&amp;'), undefined, { line: 9, column: 34 }],
    ['more than 1,024 characters before any `;`', long, undefined, { line: 9 }],
  ])('%s', async (_, text, chunkSize, where) => {
    const result = await collect(text, chunkSize === undefined ? {} : { chunkSize });
    expect(result.error?.code).toBe('xml_malformed');
    expect(result.error).toMatchObject(where);
    expect(result.error?.message).toMatch(/^line 9(, column 34)?: an unescaped "&"/);
    expect(result.entries).toHaveLength(6);
  });

  it('leaves an undefined but well-formed entity to its own message', async () => {
    const result = await collect(urlset('<url><loc>https://x.example/&nbsp;</loc></url>'));
    expect(result.error?.message).not.toMatch(/unescaped/);
  });
});
