// @vitest-environment node
/**
 * The partner's Content-Security-Policy: the widget's sources (the BFF for scripts and API calls, the logo's
 * origins for images, nothing more), the strict form around them, and both ways of writing it.
 */
import { expect, it } from 'vitest';
import { formatCsp, partnerCsp, strictPartnerCsp } from './partner-csp';

const bffOrigin = 'https://bff.example.com';

it('allows the BFF for scripts and API calls, and the logo’s origins for images', () => {
  expect(partnerCsp({ bffOrigin, logoOrigins: ['https://cdn.acme.example', bffOrigin] })).toEqual({
    'script-src': [bffOrigin],
    'connect-src': [bffOrigin],
    'img-src': ['https://cdn.acme.example', bffOrigin],
  });
});

it('asks for no image source when the brand has no logo', () => {
  expect(partnerCsp({ bffOrigin })).toEqual({ 'script-src': [bffOrigin], 'connect-src': [bffOrigin] });
  expect(formatCsp(strictPartnerCsp({ bffOrigin }))).not.toContain('img-src');
});

it('puts the widget’s sources in a policy that allows nothing else, with Trusted Types', () => {
  const strict = strictPartnerCsp({ bffOrigin, logoOrigins: [bffOrigin] });
  expect(strict).toMatchObject(partnerCsp({ bffOrigin, logoOrigins: [bffOrigin] }));
  expect(strict['default-src']).toEqual(["'none'"]);
  expect(strict['style-src']).toEqual(["'none'"]);
  expect(strict['trusted-types']).toEqual(["'none'"]);
  expect(strict['require-trusted-types-for']).toEqual(["'script'"]);
  expect(Object.values(strict).flat().join(' ')).not.toMatch(/unsafe|\*|data:/);
});

it('writes a header value, or a directive a line for the docs', () => {
  const directives = partnerCsp({ bffOrigin, logoOrigins: ['https://cdn.acme.example'] });
  expect(formatCsp(directives)).toBe(
    `script-src ${bffOrigin}; connect-src ${bffOrigin}; img-src https://cdn.acme.example`,
  );
  expect(formatCsp(directives, { lines: true })).toBe(
    `script-src ${bffOrigin};\nconnect-src ${bffOrigin};\nimg-src https://cdn.acme.example;`,
  );
});
