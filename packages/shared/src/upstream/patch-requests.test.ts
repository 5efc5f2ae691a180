/** Every patch request needs at least one property; each single property is enough on its own. */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fixture, issuesOf } from '../../testing/test-kit';
import {
  AccountMemberPatchRequestSchema,
  AccountPatchRequestSchema,
  AT_LEAST_ONE_PROPERTY,
  BrandPatchRequestSchema,
  RecipientPatchRequestSchema,
} from './index';

const patches: [string, z.ZodType][] = [
  ['recipient-patch-request', RecipientPatchRequestSchema],
  ['account-patch-request', AccountPatchRequestSchema],
  ['brand-patch-request', BrandPatchRequestSchema],
  ['account-member-patch-request', AccountMemberPatchRequestSchema],
];

describe.each(patches)('%s', (name, schema) => {
  it('rejects an empty body with "at least one property"', () => {
    const result = schema.safeParse({});
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ code: 'custom', path: [], message: AT_LEAST_ONE_PROPERTY }),
    ]);
  });

  it.each(Object.entries(fixture(name)))('accepts %s alone', (key, value) => {
    expect(issuesOf(schema, { [key]: value })).toEqual([]);
  });

  it('does not count an undeclared property as the one property', () => {
    expect(issuesOf(schema, { unexpectedProperty: true })).toEqual([
      { path: '', code: 'unrecognized_keys' },
      { path: '', code: 'custom' },
    ]);
  });
});

it('brand patch: null clears a local override, one field at a time', () => {
  for (const key of [
    'displayName',
    'logoUrl',
    'primaryColor',
    'supportEmail',
    'supportUrl',
    'customDomain',
  ]) {
    expect(issuesOf(BrandPatchRequestSchema, { [key]: null }), key).toEqual([]);
  }
});

it('member patch: status can only become revoked', () => {
  expect(issuesOf(AccountMemberPatchRequestSchema, { status: 'revoked' })).toEqual([]);
  for (const status of ['invited', 'active', 'expired']) {
    expect(issuesOf(AccountMemberPatchRequestSchema, { status })).toEqual([
      { path: 'status', code: 'invalid_value' },
    ]);
  }
});
