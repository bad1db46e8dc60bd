import { Readable } from 'node:stream';
import { auditIdParam } from '@/lib/core/params';
import { ZExportQuery } from '@/lib/findings/schema';
import { reconciledAudit } from '@/lib/review/data';
import { exportFileName, findingJsonLine } from '@/lib/review/export/csv';
import { copyFindingsCsv, streamFindings } from '@/lib/review/export/data';
import { guarded } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  const { format, bom, decision, ...rest } = ZExportQuery.parse(
    Object.fromEntries(new URL(request.url).searchParams),
  );
  const filter = { ...rest, decision: decision === 'all' ? undefined : decision };
  const audit = await reconciledAudit(id);
  const name = exportFileName(audit.name, filter.list, decision, format);
  const headers = {
    'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    'content-disposition': `attachment; filename="${name}"`,
    'cache-control': 'no-store',
  };
  if (format === 'csv') {
    // Postgres formats the CSV (COPY ... TO STDOUT): the rows are streamed straight from the database.
    const { stream, release } = await copyFindingsCsv(id, filter);
    const body = Readable.toWeb(stream as Readable) as ReadableStream<Uint8Array>;
    return new Response(withCancel(body, release, bom ? UTF8_BOM : undefined), { headers });
  }
  const batches = streamFindings(id, filter);
  const encoder = new TextEncoder();
  // The first batch is read before answering: a database that is away is then a 503 the client can retry,
  // not a 200 whose body breaks off.
  let first: IteratorResult<Parameters<typeof findingJsonLine>[0][]> | null = await batches.next();
  // Pulled batch by batch from a database cursor: the export never sits in memory whole.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = first ?? (await batches.next());
      first = null;
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(next.value.map(findingJsonLine).join('')));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return new Response(body, { headers });
});

/** The UTF-8 byte order mark: Excel reads a CSV that starts with it as UTF-8 (else as the locale's code page). */
const UTF8_BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

/** Passes a stream through, after `prefix`, calling `onCancel` if the client goes away before the end. */
function withCancel(
  body: ReadableStream<Uint8Array>,
  onCancel: () => void,
  prefix?: Uint8Array,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (prefix) controller.enqueue(prefix);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel(reason) {
      onCancel();
      await reader.cancel(reason).catch(() => {});
    },
  });
}
