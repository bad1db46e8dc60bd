// Roles, from most to least powerful. A role can do everything the roles below it can.
export const ROLES = ['admin', 'reviewer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const rank: Record<Role, number> = { admin: 3, reviewer: 2, viewer: 1 };

/** True when `role` may do what `needed` may. */
export function allows(role: Role, needed: Role): boolean {
  return rank[role] >= rank[needed];
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
