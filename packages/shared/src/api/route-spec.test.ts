/** The path helpers every consumer of the API's description shares, and the error codes of a route. */
import { describe, expect, it } from 'vitest';
import { allowedMethods, fillPath, matchPath, pathSegments, routeErrorCodes } from './route-spec';

describe('fillPath', () => {
  it('fills each parameter as one encoded segment', () => {
    expect(fillPath('/v1/checkouts/{id}/installation', { id: 'chk 1/2' })).toBe(
      '/v1/checkouts/chk%201%2F2/installation',
    );
    expect(fillPath('/v1/sessions', {})).toBe('/v1/sessions');
  });
});

describe('pathSegments', () => {
  it('reads each segment as text or a parameter with the text around it', () => {
    expect(pathSegments('/widget@{version}/widget.js')).toEqual([
      '',
      { name: 'version', before: 'widget@', after: '' },
      'widget.js',
    ]);
    expect(pathSegments('/v1/checkouts/{id}/cancel')).toEqual([
      '',
      'v1',
      'checkouts',
      { name: 'id', before: '', after: '' },
      'cancel',
    ]);
  });
});

describe('matchPath', () => {
  it('reads the parameters of an instance of the template, decoded', () => {
    expect(matchPath('/v1/checkouts/{id}', '/v1/checkouts/chk%201')).toEqual({ id: 'chk 1' });
    expect(
      matchPath(
        '/v1/catalog/{widgetId}/{version}/{locale}/plans/{code}',
        '/v1/catalog/acme/7-ab/en/plans/TR',
      ),
    ).toEqual({ widgetId: 'acme', version: '7-ab', locale: 'en', code: 'TR' });
    expect(matchPath('/v1/my-esim', '/v1/my-esim')).toEqual({});
  });

  it('takes a parameter that shares its segment with text, and only within the segment', () => {
    expect(matchPath('/widget@{version}/widget.js', '/widget@1.2.3/widget.js')).toEqual({ version: '1.2.3' });
    expect(matchPath('/widget@{version}/widget.js', '/widget@1/2/widget.js')).toBeNull();
    expect(matchPath('/widget@{version}/widget.js', '/widgetX1/widget.js')).toBeNull();
  });

  it('matches no other path', () => {
    expect(matchPath('/v1/checkouts/{id}', '/v1/checkouts')).toBeNull();
    expect(matchPath('/v1/checkouts/{id}', '/v1/checkouts/a/b')).toBeNull();
    expect(matchPath('/v1/checkouts/{id}', '/v1/checkouts/a/')).toBeNull();
  });
});

describe('allowedMethods', () => {
  const routes = [
    { method: 'GET', path: '/v1/checkouts/{id}' },
    { method: 'POST', path: '/v1/checkouts/{id}/cancel' },
    { method: 'GET', path: '/v1/partner/checkouts/{id}' },
  ] as const;

  it('names the methods a path answers, HEAD with GET, OPTIONS on the widget API', () => {
    expect(allowedMethods(routes, '/v1/checkouts/c1')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(allowedMethods(routes, '/v1/checkouts/c1/cancel')).toEqual(['POST', 'OPTIONS']);
    expect(allowedMethods(routes, '/v1/partner/checkouts/c1')).toEqual(['GET', 'HEAD']);
    expect(allowedMethods(routes, '/v1/nothing')).toEqual([]);
  });
});

describe('routeErrorCodes', () => {
  it('adds the codes of the route’s auth, of an idempotent create and of any request to its own', () => {
    const codes = routeErrorCodes({ auth: 'session+secret', idempotent: true, errors: ['esim_not_found'] });
    expect(codes).toEqual(
      expect.arrayContaining([
        'esim_not_found',
        'widget_session_invalid',
        'checkout_not_found',
        'idempotency_conflict',
        'validation_failed',
        'internal',
      ]),
    );
    expect(new Set(codes).size).toBe(codes.length);
    expect(routeErrorCodes({ auth: 'public' })).not.toContain('idempotency_conflict');
  });
});
