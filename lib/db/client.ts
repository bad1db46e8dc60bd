// The one Prisma client of a process, on the pg pool of pool.ts (which SQL-only code imports alone).
import 'server-only';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { closePool, dbGlobals, pool } from './pool';

export { databaseUrl, pool, transaction } from './pool';

export function db(): PrismaClient {
  dbGlobals.prisma ??= new PrismaClient({ adapter: new PrismaPg(pool()) });
  return dbGlobals.prisma as PrismaClient;
}

export async function closeDb(): Promise<void> {
  const prisma = dbGlobals.prisma;
  dbGlobals.prisma = undefined;
  await prisma?.$disconnect();
  await closePool();
}
