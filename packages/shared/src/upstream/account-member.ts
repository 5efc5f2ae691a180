/**
 * @module
 * Account members: people on an account's team, with a role; invited, then active, expired or revoked.
 */
import { z } from 'zod';
import { DisplayNameSchema } from './account';
import { EmailAddressSchema } from './recipient';
import { AccountMemberStatusSchema } from './states';
import { DateTimeSchema, pageEnvelope, patchRequest, responseEnvelope } from './upstream-common';

/** A member's role; technical access is separate from funds and staff administration. */
export const MemberRoleSchema = z.enum(['admin', 'operator', 'support', 'finance', 'developer']);
export type MemberRole = z.infer<typeof MemberRoleSchema>;

/** A member of an account. */
export const AccountMemberSchema = z.strictObject({
  id: z.string(),
  accountId: z.string(),
  email: z.email(),
  displayName: z.string().nullable(),
  role: MemberRoleSchema,
  status: AccountMemberStatusSchema,
  invitedAt: DateTimeSchema,
  inviteExpiresAt: DateTimeSchema.nullable(),
  invitationVersion: z.int().min(1),
  acceptedAt: DateTimeSchema.nullable(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type AccountMember = z.infer<typeof AccountMemberSchema>;

/** Invite a member. */
export const AccountMemberCreateRequestSchema = z.strictObject({
  email: EmailAddressSchema,
  displayName: DisplayNameSchema.optional(),
  role: MemberRoleSchema,
});
export type AccountMemberCreateRequest = z.infer<typeof AccountMemberCreateRequestSchema>;

/** Change a member's role or revoke it: at least one property; `status` can only become `revoked`. */
export const AccountMemberPatchRequestSchema = patchRequest(
  z.strictObject({
    role: MemberRoleSchema.optional(),
    status: z.literal('revoked').optional(),
  }),
);
export type AccountMemberPatchRequest = z.infer<typeof AccountMemberPatchRequestSchema>;

export const AccountMemberResponseSchema = responseEnvelope(AccountMemberSchema);
export type AccountMemberResponse = z.infer<typeof AccountMemberResponseSchema>;

export const AccountMemberPageSchema = pageEnvelope(AccountMemberSchema);
export type AccountMemberPage = z.infer<typeof AccountMemberPageSchema>;
