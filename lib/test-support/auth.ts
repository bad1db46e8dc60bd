// Test callers: a user of a given role with an API token, and Requests that carry it.
import { randomUUID } from 'node:crypto';
import { createApiToken, createUser } from '@/lib/auth/mutations';
import type { Role } from '@/lib/auth/roles';

export interface TestCaller {
  id: string;
  name: string;
  token: string;
  /** A Request with `Authorization: Bearer <token>`. */
  request(url: string, init?: RequestInit): Request;
}

export async function testCaller(
  role: Role,
  name = `${role} ${randomUUID().slice(0, 8)}`,
): Promise<TestCaller> {
  const user = await createUser({
    email: `${randomUUID()}@test.example`,
    name,
    role,
    password: 'a long enough password',
  });
  const { token } = await createApiToken(user.id, 'test');
  return {
    id: user.id,
    name,
    token,
    request(url, init = {}) {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${token}`);
      return new Request(url, { ...init, headers });
    },
  };
}
