import { describe, expect, it } from 'vitest';
import { ERROR_STATUS_BY_CODE } from './error-status';
import { ERROR_CODES } from './errors';

describe('the contract error → status table', () => {
  it('follows the assumed rules: 404 for *_not_found, 409 for conflicts', () => {
    for (const code of ERROR_CODES) {
      if (code.endsWith('_not_found')) expect([code, ERROR_STATUS_BY_CODE[code]]).toEqual([code, 404]);
      if (code.endsWith('_conflict') || code.endsWith('_exists')) {
        expect([code, ERROR_STATUS_BY_CODE[code]]).toEqual([code, 409]);
      }
    }
    expect(ERROR_STATUS_BY_CODE.validation_failed).toBe(422);
    expect(ERROR_STATUS_BY_CODE.action_not_available).toBe(409);
  });
});
