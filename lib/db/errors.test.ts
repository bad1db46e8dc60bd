// The shapes the database layer throws during a restart, as recorded from a real server (the restart test
// meets them too, when its timing lands in the window): each is "unavailable", a genuine SQL error is not.
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './errors';

/** Prisma 7's error for a session the server refused during crash recovery (SQLSTATE 57P03). */
const prismaRefusedDuringRecovery = {
  name: 'PrismaClientKnownRequestError',
  code: 'P2039',
  message: 'Invalid `db().apiToken.findUnique()` invocation: Database error. Code: `57P03`.',
  meta: {
    modelName: 'ApiToken',
    driverAdapterError: {
      name: 'DriverAdapterError',
      cause: {
        originalCode: '57P03',
        originalMessage: 'the database system is not yet accepting connections',
        kind: 'postgres',
        code: '57P03',
        severity: 'FATAL',
        message: 'the database system is not yet accepting connections',
      },
    },
  },
};

describe('isDatabaseUnavailable', () => {
  it('reads the SQLSTATE Prisma 7 keeps in meta.driverAdapterError', () => {
    expect(isDatabaseUnavailable(prismaRefusedDuringRecovery)).toBe(true);
  });

  it('reads the adapter kinds of an unreachable server and a closed connection', () => {
    for (const kind of ['DatabaseNotReachable', 'ConnectionClosed']) {
      const error = {
        code: 'P2010',
        meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind } } },
      };
      expect(isDatabaseUnavailable(error)).toBe(true);
    }
  });

  it("knows Postgres's words for a recovery, even without a code", () => {
    expect(isDatabaseUnavailable(new Error('the database system is not yet accepting connections'))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('the database system is not accepting connections'))).toBe(true);
  });

  it('leaves a genuine SQL error alone, also when Prisma wraps it', () => {
    const bug = {
      code: 'P2010',
      meta: { driverAdapterError: { cause: { kind: 'postgres', code: '42P01', originalCode: '42P01' } } },
    };
    expect(isDatabaseUnavailable(bug)).toBe(false);
    expect(isDatabaseUnavailable({ code: '23505', message: 'duplicate key value' })).toBe(false);
  });
});
