// The users API for the admin page: types, query key and the JSON request helper.
import { apiFetch } from '@/lib/audits/hooks';
import type { Role } from '@/lib/auth/roles';

export interface UserDto {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
  disabledAt: string | null;
}

export interface UserChange {
  role?: Role;
  disabled?: boolean;
  password?: string;
}

export const usersKey = ['users', 'list'] as const;

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  reviewer: 'Reviewer',
  viewer: 'Viewer',
};

/** A JSON request to the API; errors are ApiErrors carrying the server's message. */
export function sendJson<T>(path: string, method: 'POST' | 'PATCH' | 'DELETE', body?: unknown): Promise<T> {
  return apiFetch<T>(path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export function userPath(id: string): string {
  return `/api/v1/users/${encodeURIComponent(id)}`;
}
