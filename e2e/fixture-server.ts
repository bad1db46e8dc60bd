// Entry point Playwright starts as a web server: the fixture corpus over HTTP on a fixed port.
import { startFixtureServer } from '@/lib/test-support/fixture-server';

const server = await startFixtureServer(Number(process.env.FIXTURE_PORT ?? 3218));
console.log(`fixture server on ${server.origin}`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
