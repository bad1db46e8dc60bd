// A process of a machine that shares its database (lib/db/shared-database.int.test.ts): started with the
// owner's DATABASE_URL and a DATA_DIR of its own, it gets the database as `npm run web` and `npm run
// worker` do (migrations, roles) and prints what it got as one JSON line; then, by its argument, seals a
// Search Console key for a new audit (`store`) or opens the one an audit holds (`read <audit id>`), through
// the same code the API and the worker use.
//   node --conditions=react-server --import tsx lib/test-support/shared-database-probe.ts start|store|read <id>
import 'server-only';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { insertAudit } from '@/lib/audits/mutations';
import { ensureDatabase } from '@/lib/db/bootstrap';
import { credentialsSecret, openKey } from '@/lib/gsc/credentials';
import { credentialsOf, sealedCredentials } from '@/lib/gsc/inspection/data';
import { setCredentials } from '@/lib/gsc/inspection-service';

const [command, auditArg] = process.argv.slice(2);
const database = await ensureDatabase();
const out: Record<string, unknown> = { url: database.url, workerUrl: database.workerUrl };
try {
  if (command === 'store') {
    const auditId = randomUUID();
    await insertAudit(auditId, 'shared key', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: 'https://shared.example/sitemap.xml' },
    ]);
    const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const key = {
      type: 'service_account',
      private_key_id: 'k1',
      private_key: privateKey,
      client_email: 'probe@shared.iam.gserviceaccount.com',
    };
    await setCredentials(auditId, { property: 'sc-domain:shared.example', key }, 'probe');
    out.auditId = auditId;
  } else if (command === 'read' && auditArg) {
    const credentials = await credentialsOf(auditArg);
    const sealed = credentials ? await sealedCredentials(credentials.id) : null;
    if (!sealed) throw new Error(`audit ${auditArg} has no sealed key`);
    out.clientEmail = openKey(sealed, auditArg, credentialsSecret()).clientEmail;
  }
} catch (error) {
  out.error = (error as Error).message;
}
console.log(JSON.stringify(out));
// The pools would keep the process alive.
process.exit(0);
