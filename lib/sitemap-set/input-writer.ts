// Writes the input layout's files from the plan (input-plan.ts): every kept entry back as it was read, in
// its file and order, with its root start tag; a replaced entry with its new <loc> (and the hreflang
// hrefs that named the old URL); the additions in their own file; then each index over its children as
// written. Each file streams into the caller's sink through writer.ts's FilePart, as the sections layout's do.
import type { InputRow } from './data';
import {
  type InputPlan,
  type KeptAsIs,
  locOf,
  type PlannedFile,
  type PlanOptions,
  splitName,
} from './input-plan';
import { FilePart, type FileSink, MAX_INDEX_FILES, type WrittenPart } from './writer';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;');
const unescapeAttribute = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&');

/** The root element's qualified name and the prefix its children take (`sit:` for `sit:urlset`). */
export function rootNames(rootTag: string): { name: string; prefix: string } {
  const name = rootTag.split(/\s/, 1)[0] as string;
  const colon = name.indexOf(':');
  return { name, prefix: colon === -1 ? '' : name.slice(0, colon + 1) };
}

/** One <url> as read; `replaced` maps an old URL to the one an approved url variant puts in its place. */
export function urlXml(row: InputRow, prefix: string, replaced: ReadonlyMap<string, string>): string {
  const loc = row.replaceWith ?? row.loc;
  if (row.extra === null) {
    let text = `<${prefix}url><${prefix}loc>${escapeText(loc)}</${prefix}loc>`;
    if (row.lastmodRaw !== null) text += `<${prefix}lastmod>${escapeText(row.lastmodRaw)}</${prefix}lastmod>`;
    if (row.changefreq !== null)
      text += `<${prefix}changefreq>${escapeText(row.changefreq)}</${prefix}changefreq>`;
    if (row.priority !== null) text += `<${prefix}priority>${String(row.priority)}</${prefix}priority>`;
    return `${text}</${prefix}url>\n`;
  }
  let inner = row.extra;
  if (row.replaceWith !== null) {
    const open = `<${prefix}loc>`;
    const start = inner.indexOf(open);
    const end = start === -1 ? -1 : inner.indexOf(`</${prefix}loc>`, start);
    if (end !== -1) inner = `${inner.slice(0, start + open.length)}${escapeText(loc)}${inner.slice(end)}`;
  }
  if (replaced.size > 0 && inner.includes(' href="')) {
    inner = inner.replace(/ href="([^"]*)"/g, (whole, value: string) => {
      const next = replaced.get(unescapeAttribute(value));
      return next === undefined ? whole : ` href="${escapeAttribute(next)}"`;
    });
  }
  return `<${prefix}url>${inner}</${prefix}url>\n`;
}

export interface InputWriteOptions extends PlanOptions {
  signal?: AbortSignal;
}

/**
 * Writes every planned file: the kept rows (file by file, in order), the additions, the files left with
 * no row, then the indexes. Returns the parts each file took, in the plan's order.
 */
export async function writeInputLayout(
  plan: InputPlan,
  rows: AsyncIterable<readonly InputRow[]>,
  added: AsyncIterable<readonly { url: string; lastmod: string | null }[]>,
  replaced: ReadonlyMap<string, string>,
  options: InputWriteOptions,
  sink: FileSink,
): Promise<Map<PlannedFile, WrittenPart[]>> {
  const { signal } = options;
  const written = new Map<PlannedFile, WrittenPart[]>();
  const bySource = new Map<number, PlannedFile>();
  for (const file of plan.files) if (file.source) bySource.set(file.source.id, file);
  let count = 0;

  const openPart = (file: PlannedFile, index: number): FilePart => {
    if (++count > MAX_INDEX_FILES) throw new Error(`The set would need more than ${MAX_INDEX_FILES} files`);
    const [stem, ext] = splitName(file.name);
    const name = file.parts[index] ?? plan.names.take(`${stem}-${index + 1}${ext}`);
    if (index >= file.parts.length) file.parts.push(name);
    const isText = file.kind === 'text';
    const root = rootNames(file.rootTag);
    const head = isText ? '' : `${XML_DECLARATION}<${file.rootTag}>\n`;
    const tail = isText ? '' : `</${root.name}>\n`;
    const part = new FilePart(name, head, tail, file.gzip, sink, signal);
    const list = written.get(file) ?? [];
    list.push(part.written);
    written.set(file, list);
    return part;
  };

  // The file being written (a holder: the closures below replace it).
  const at: { file: PlannedFile | null; part: FilePart | null; index: number; prefix: string } = {
    file: null,
    part: null,
    index: 0,
    prefix: '',
  };
  const write = async (file: PlannedFile, text: string) => {
    if (at.file !== file || at.part === null) {
      if (at.part) await at.part.close();
      Object.assign(at, { file, part: openPart(file, 0), index: 0 });
    }
    let part = at.part as FilePart;
    const bytes = Buffer.byteLength(text);
    if (!part.fits(bytes, options.maxUrls, options.maxBytes)) {
      await part.close();
      at.index += 1;
      part = openPart(file, at.index);
      at.part = part;
    }
    await part.add(text, bytes);
  };
  const prefixOf = (file: PlannedFile) => {
    if (at.file !== file) at.prefix = rootNames(file.rootTag).prefix;
    return at.prefix;
  };

  for await (const batch of rows) {
    for (const row of batch) {
      signal?.throwIfAborted();
      const file = bySource.get(row.fileId);
      if (!file || file.dropped || file.kind === 'index') continue;
      await write(
        file,
        file.kind === 'text' ? `${row.replaceWith ?? row.loc}\n` : urlXml(row, prefixOf(file), replaced),
      );
    }
  }
  const addedFile = plan.files.find((f) => f.kind === 'added');
  if (addedFile) {
    for await (const batch of added) {
      for (const row of batch) {
        signal?.throwIfAborted();
        await write(
          addedFile,
          urlXml(
            {
              fileId: 0,
              loc: row.url,
              lastmodRaw: row.lastmod,
              changefreq: null,
              priority: null,
              extra: null,
              replaceWith: null,
            },
            '',
            replaced,
          ),
        );
      }
    }
  }
  if (at.part) await at.part.close();
  // Files no kept row reached (empty as read): written as read, head and tail.
  for (const file of plan.files) {
    if (file.dropped || file.kind === 'index' || written.has(file)) continue;
    await openPart(file, 0).close();
  }
  for (const file of plan.files) {
    if (file.kind !== 'index' || file.dropped || !file.source) continue;
    const text = indexXml(plan, file, written, options);
    const part = openPart(file, 0);
    await part.addBody(text, (plan.children.get(file.source.id) ?? []).length);
    await part.close();
  }
  // The plan's order, not the writing order.
  return new Map(plan.files.filter((f) => written.has(f)).map((f) => [f, written.get(f) as WrittenPart[]]));
}

/** An index's body: its children in declared order, each part of a written child at its place, a child
 * kept as is as declared, a dropped child left out, the additions last. */
function indexXml(
  plan: InputPlan,
  index: PlannedFile,
  written: ReadonlyMap<PlannedFile, WrittenPart[]>,
  options: PlanOptions,
): string {
  const { prefix } = rootNames(index.rootTag);
  const children = plan.children.get(index.source?.id ?? -1) ?? [];
  const near =
    children.find((c): c is PlannedFile => 'kind' in c && c.listedLoc !== null)?.listedLoc ??
    index.source?.finalUrl ??
    index.source?.url ??
    null;
  const entry = (loc: string, lastmod: string | null) =>
    `<${prefix}sitemap><${prefix}loc>${escapeText(loc)}</${prefix}loc>${
      lastmod === null ? '' : `<${prefix}lastmod>${escapeText(lastmod)}</${prefix}lastmod>`
    }</${prefix}sitemap>\n`;
  let text = '';
  for (const child of children) {
    if (!('kind' in child)) {
      const kept = (child as KeptAsIs).source;
      const loc = kept.listedLoc ?? kept.url ?? kept.uploadName;
      if (loc) text += entry(loc, kept.listedLastmod);
      continue;
    }
    if (child.dropped) continue;
    for (const part of written.get(child) ?? []) {
      text += entry(locOf(child, part.name, options, near), child.listedLastmod);
    }
  }
  return text;
}
