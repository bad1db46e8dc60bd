-- Revoked share links stay listed with who revoked them (issue #14): the link list is the audit's record
-- of who was given access and who took it back. A deleted account leaves the revocation standing, unnamed.
ALTER TABLE "shares"
  ADD COLUMN "revoked_by" UUID REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
