// How the users page names roles.
import type { Role } from '@/lib/auth/roles';

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  reviewer: 'Reviewer',
  viewer: 'Viewer',
};
