// @vitest-environment node
/**
 * The partner's Content-Security-Policy: the widget's sources (the BFF for scripts, API calls and images, and
 * the host of a logo configured elsewhere; nothing more), the strict form around them, and both ways of
 * writing it.
 */
import { expect, it } from 'vitest';
import { formatCsp, partnerCsp, strictPartnerCsp } from './partner-csp';

const bffOrigin = 'https://bff.example.com';

it('allows the BFF for scripts, API calls and the logo, and a logo configured on another host', () => {
  expect(partnerCsp({ bffOrigin })).toEqual({
    'script-src': [bffOrigin],
    'connect-src': [bffOrigin],
    'img-src': [bffOrigin],
  });
  expect(partnerCsp({ bffOrigin, logoOrigins: ['https://cdn.acme.example', bffOrigin] })['img-src']).toEqual([
    bffOrigin,
    'https://cdn.acme.example',
  ]);
});

it('puts the widget’s sources in a policy that allows nothing else, with Trusted Types', () => {
  const strict = strictPartnerCsp({ bffOrigin });
  expect(strict).toMatchObject(partnerCsp({ bffOrigin }));
  expect(strict['default-src']).toEqual(["'none'"]);
  expect(strict['style-src']).toEqual(["'none'"]);
  expect(strict['trusted-types']).toEqual(["'none'"]);
  expect(strict['require-trusted-types-for']).toEqual(["'script'"]);
  expect(Object.values(strict).flat().join(' ')).not.toMatch(/unsafe|\*|data:/);
});

it('writes a header value, or a directive a line for the docs', () => {
  const directives = partnerCsp({ bffOrigin, logoOrigins: ['https://cdn.acme.example'] });
  expect(formatCsp(directives)).toBe(
    `script-src ${bffOrigin}; connect-src ${bffOrigin}; img-src ${bffOrigin} https://cdn.acme.example`,
  );
  expect(formatCsp(directives, { lines: true })).toBe(
    `script-src ${bffOrigin};\nconnect-src ${bffOrigin};\nimg-src ${bffOrigin} https://cdn.acme.example;`,
  );
});
