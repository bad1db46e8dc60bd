'use client';
// The signed-in user, for client components that adapt to the role (the server enforces it anyway).
import { createContext, type ReactNode, useContext } from 'react';
import { allows, type Role } from '@/lib/auth/roles';

export interface SessionUser {
  name: string;
  email: string;
  role: Role;
}

const SessionContext = createContext<SessionUser | null>(null);

export function SessionProvider({ user, children }: { user: SessionUser; children: ReactNode }) {
  return <SessionContext.Provider value={user}>{children}</SessionContext.Provider>;
}

export function useSessionUser(): SessionUser | null {
  return useContext(SessionContext);
}

/** Whether the signed-in user has at least this role. */
export function useCan(needed: Role): boolean {
  const user = useContext(SessionContext);
  return user !== null && allows(user.role, needed);
}
