import { Readable } from 'node:stream';
import { auditIdParam } from '@/lib/api/params';
import { guarded } from '@/lib/api/respond';
import { exportFileName, findingJsonLine } from '@/lib/findings/csv';
import { reconciledAudit } from '@/lib/findings/data';
import { copyFindingsCsv, streamFindings } from '@/lib/findings/export/data';
import { ZExportQuery } from '@/lib/findings/schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  const query = ZExportQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const audit = await reconciledAudit(id);
  const name = exportFileName(audit.name, query.list, query.decision, query.format);
  const headers = {
    'content-type':
      query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    'content-disposition': `attachment; filename="${name}"`,
    'cache-control': 'no-store',
  };
  if (query.format === 'csv') {
    // Postgres formats the CSV (COPY ... TO STDOUT): the rows are streamed straight from the database.
    const { stream, release } = await copyFindingsCsv(id, query.list, query.decision);
    const body = Readable.toWeb(stream as Readable) as ReadableStream<Uint8Array>;
    return new Response(withCancel(body, release), { headers });
  }
  const batches = streamFindings(id, query.list, query.decision);
  const encoder = new TextEncoder();
  // Pulled batch by batch from a database cursor: the export never sits in memory whole.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await batches.next();
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

/** Passes a stream through, calling `onCancel` if the client goes away before the end. */
function withCancel(body: ReadableStream<Uint8Array>, onCancel: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
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
