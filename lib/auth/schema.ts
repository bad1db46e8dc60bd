// Request shapes of the account endpoints.
import { z } from 'zod';
import { ROLES } from './roles';
import { MIN_PASSWORD_LENGTH } from './secrets';

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address');
const password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1024);
const name = z.string().trim().min(1, 'is required').max(100);

export const ZLogin = z.object({
  email: z.string().trim().toLowerCase().max(254),
  password: z.string().max(1024),
  /** Where the browser goes next (the login page's `?next=`); the answer says where it may go. */
  next: z.string().max(4096).optional(),
});
export const ZSetup = z.object({ email, name, password });
export const ZNewUser = z.object({ email, name, password, role: z.enum(ROLES) });
export const ZUserChange = z
  .object({
    role: z.enum(ROLES).optional(),
    disabled: z.boolean().optional(),
    password: password.optional(),
    /** With a password reset: revoke the user's API tokens too (the default; a reset is often a leak). */
    revokeTokens: z.boolean().optional(),
  })
  .refine((v) => v.role !== undefined || v.disabled !== undefined || v.password !== undefined, {
    message: 'give role, disabled or password',
  })
  .refine((v) => v.revokeTokens === undefined || v.password !== undefined, {
    message: 'revokeTokens goes with a new password',
    path: ['revokeTokens'],
  });
export const ZPasswordChange = z.object({ current: z.string().max(1024), password });
export const ZNewToken = z.object({ name: z.string().trim().min(1, 'is required').max(100) });
export const ZNewShare = z.object({
  expiresAt: z
    .string()
    .datetime({ offset: true })
    .refine((v) => new Date(v).getTime() > Date.now(), 'must be in the future')
    .optional()
    .nullable(),
});

export { email as ZEmail, password as ZPassword };

// Request bodies as the browser sends them (before the server trims and lower-cases).
export type TLogin = z.input<typeof ZLogin>;
export type TSetup = z.input<typeof ZSetup>;
export type TNewUser = z.input<typeof ZNewUser>;
export type TUserChange = z.input<typeof ZUserChange>;
export type TPasswordChange = z.input<typeof ZPasswordChange>;
export type TNewToken = z.input<typeof ZNewToken>;
export type TNewShare = z.input<typeof ZNewShare>;
