// The text a PDF draws, for tests: page streams inflated, the hex strings of every TJ joined (one line
// per TJ).
import { inflateSync } from 'node:zlib';

export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const parts: string[] = [];
  const start = /(?<!end)stream\r?\n/g;
  for (let match = start.exec(raw); match; match = start.exec(raw)) {
    const from = match.index + match[0].length;
    const to = raw.indexOf('endstream', from);
    const bytes = pdf.subarray(from, to);
    try {
      parts.push(inflateSync(bytes).toString('latin1'));
    } catch {
      parts.push(bytes.toString('latin1'));
    }
  }
  const lines: string[] = [];
  for (const tj of parts.join('\n').matchAll(/\[([^\]]*)\]\s*TJ/g)) {
    const hex = [...(tj[1] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1] ?? '').join('');
    lines.push(Buffer.from(hex, 'hex').toString('latin1'));
  }
  return lines.join('\n');
}
