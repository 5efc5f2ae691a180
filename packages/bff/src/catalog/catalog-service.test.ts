import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { applyMarkup, DestinationSchema, type Offer, PlanSchema } from '@esim-embed/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../testing/test-relay';
import { PricingRuleSchema } from '../config/pricing-rule';
import { ApiError } from '../errors';
import { createLogger } from '../logger';
import { createUpstreamClient, type UpstreamClient } from '../upstream/upstream-client';
import { type CatalogService, type CatalogServiceOptions, createCatalogService } from './catalog-service';
import { syncCatalog } from './catalog-sync';

const logLines: string[] = [];
const logger = createLogger({ level: 'debug', write: (line) => logLines.push(line) });

let sandbox: RunningSandbox;
let relay: TestRelay;
const upstreams: UpstreamClient[] = [];
const services: CatalogService[] = [];

function upstreamFor(apiKey: string = SANDBOX_KEYS.globetrotter, baseUrl = relay.url): UpstreamClient {
  const upstream = createUpstreamClient({
    baseUrl,
    apiKey,
    logger,
    timeoutMs: 2_000,
    retry: { baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 0 },
  });
  upstreams.push(upstream);
  return upstream;
}

function serviceFor(options: Partial<CatalogServiceOptions> = {}): CatalogService {
  const service = createCatalogService({
    upstream: options.upstream ?? upstreamFor(),
    logger,
    refreshIntervalMs: 0,
    pageSize: 500,
    ...options,
  });
  services.push(service);
  return service;
}

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ faultInjection: true });
  relay = await startTestRelay(sandbox.url);
});

afterEach(() => {
  relay.hooks = {};
});

afterAll(async () => {
  await Promise.all(services.map((service) => service.close()));
  await Promise.all(upstreams.map((upstream) => upstream.close()));
  await relay?.close();
  await sandbox?.close();
});

describe('catalog sync', () => {
  it('fetches the whole sandbox catalog page by page', async () => {
    const from = relay.requests.length;
    const snapshot = await syncCatalog(upstreamFor(), { logger, pageSize: 150 });
    const catalog = sandbox.state.catalog;
    expect(snapshot.products).toHaveLength(catalog.products.length);
    expect(snapshot.offers).toHaveLength(catalog.offers.length);
    expect(new Set(snapshot.offers.map((offer) => offer.id))).toEqual(
      new Set(catalog.offers.map((offer) => offer.id)),
    );
    const pages = relay.requests.slice(from).filter((request) => request.path.startsWith('/catalog/'));
    expect(pages.length).toBe(
      Math.ceil(catalog.products.length / 150) + Math.ceil(catalog.offers.length / 150),
    );
  });

  it('starts again when the snapshot changes mid-walk', async () => {
    let offerPages = 0;
    relay.hooks.beforeForward = async (request) => {
      if (request.path.startsWith('/catalog/offers') && ++offerPages === 3)
        await sandbox.control.bumpCatalog();
    };
    const before = logLines.length;
    const snapshot = await syncCatalog(upstreamFor(), { logger, pageSize: 200 });
    const state = await sandbox.control.state();
    expect(snapshot.catalogVersion).toBe(state.environments.test?.catalogVersion);
    expect(snapshot.offers).toHaveLength(sandbox.state.catalog.offers.length);
    expect(snapshot.offers.every((offer) => offer.catalogVersion === snapshot.catalogVersion)).toBe(true);
    expect(logLines.slice(before).some((line) => line.includes('catalog changed during sync'))).toBe(true);
  });
});

describe('catalog service', () => {
  it('serves localized destinations and cheapest-first plans at retail prices only', async () => {
    const service = serviceFor();
    const snapshot = await syncCatalog(upstreamFor(), { logger, pageSize: 500 });
    const { destinations, catalogVersion } = await service.destinations('ru');
    expect(catalogVersion).toBe(snapshot.catalogVersion);
    const codes = new Set(snapshot.products.map((product) => product.country.iso));
    expect(destinations.map((destination) => destination.code).sort()).toEqual([...codes].sort());
    for (const destination of destinations) DestinationSchema.parse(destination);
    expect(destinations.find((destination) => destination.code === 'DE')?.name).toBe('Германия');
    expect(destinations.find((destination) => destination.code === 'EU')).toMatchObject({
      kind: 'region',
      name: 'Европа',
    });

    const { plans, destination } = await service.plans('de', 'ru');
    expect(destination.code).toBe('DE');
    expect(plans).toHaveLength(destination.planCount);
    const prices = plans.map((plan) => PlanSchema.parse(plan).price.amountMinor);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(destination.fromPrice.amountMinor).toBe(prices[0]);
    for (const plan of plans) {
      const offer = snapshot.offerById.get(plan.offerId) as Offer;
      expect(plan.price).toEqual(offer.recommendedRetail);
      expect(plan.price.amountMinor).not.toBe(offer.price.amountMinor);
    }
    const everything = JSON.stringify([
      destinations,
      plans,
      await service.planForOffer(plans[0]?.offerId ?? '', 'en'),
    ]);
    expect(everything).not.toContain('recommendedRetail');
    expect(everything).not.toContain('pricingVersion');

    await expect(service.plans('QQ', 'en')).rejects.toMatchObject({ code: 'destination_not_found' });
    await expect(service.planForOffer('off_missing', 'en')).rejects.toBeInstanceOf(ApiError);
    await expect(service.planForOffer('off_missing', 'en')).rejects.toMatchObject({
      code: 'offer_not_found',
    });
  });

  it('prices a markup in whole roubles for a wholeRubOnly account', async () => {
    const rule = PricingRuleSchema.parse({ kind: 'markup', percent: 12.5, rounding: 'ninety_nine' });
    const aurora = upstreamFor(SANDBOX_KEYS.aurora);
    const service = serviceFor({ upstream: aurora, pricing: rule });
    expect(await service.settlement()).toMatchObject({ currency: 'RUB', wholeRubOnly: true });
    const snapshot = await syncCatalog(aurora, { logger, pageSize: 500 });
    const { plans } = await service.plans('TR', 'ru');
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      const offer = snapshot.offerById.get(plan.offerId) as Offer;
      expect(plan.price.currency).toBe('RUB');
      expect(plan.price.amountMinor % 100).toBe(0);
      expect((plan.price.amountMinor / 100) % 10).toBe(9);
      expect(plan.price).toEqual(applyMarkup(offer.price, 12.5, 'ninety_nine', { wholeRubOnly: true }));
      expect(plan.price.amountMinor).toBeGreaterThan(offer.price.amountMinor);
    }
    const quote = await aurora.createQuote(
      { offerId: plans[0]?.offerId ?? '' },
      { idempotencyKey: 'q-aurora-1' },
    );
    const quoted = await service.quotedPlan(quote, 'en');
    expect(quoted.price).toEqual(plans[0]?.price);
    expect(quoted.plan.offerId).toBe(quote.offerId);
  });

  it('gives ETags per locale, catalog version and pricing rule', async () => {
    const service = serviceFor();
    const markup = serviceFor({ pricing: { kind: 'markup', percent: 10, rounding: 'whole' } });
    const en = await service.etag('en');
    expect(en).toMatch(/^"c\d+-[0-9a-f]{16}"$/);
    expect(await service.etag('en')).toBe(en);
    expect((await service.destinations('en')).etag).toBe(en);
    expect((await service.plans('DE', 'en')).etag).toBe(en);
    expect(await service.etag('de')).not.toBe(en);
    expect(await markup.etag('en')).not.toBe(en);

    await sandbox.control.bumpCatalog();
    await service.refresh();
    const bumped = await service.etag('en');
    expect(bumped).not.toBe(en);
    // A new pricing version changes prices, hence the ETag; a full walk of an unchanged catalog does not.
    await sandbox.control.bumpPricing();
    await service.refresh();
    const repriced = await service.etag('en');
    expect(repriced).not.toBe(bumped);
    await service.refresh({ force: true });
    expect(await service.etag('en')).toBe(repriced);
  });

  it('shares one refresh among concurrent callers', async () => {
    const service = serviceFor();
    await service.destinations('en');
    const from = relay.requests.length;
    await Promise.all(Array.from({ length: 5 }, () => service.refresh()));
    await Promise.all(Array.from({ length: 5 }, () => service.destinations('fr')));
    expect(relay.requests.slice(from).filter((request) => request.path === '/capabilities')).toHaveLength(1);
  });

  it('refreshes in the background and picks up a new catalog version', async () => {
    const service = serviceFor({ refreshIntervalMs: 100 });
    service.start();
    await eventually(() => service.status().loaded);
    const version = service.status().catalogVersion ?? -1;
    await sandbox.control.bumpCatalog();
    await eventually(() => (service.status().catalogVersion ?? -1) > version);
  });

  it('serves the last good catalog while the sandbox is down, and recovers when it returns', async () => {
    const own = await startSandbox({});
    const port = own.port;
    let current: RunningSandbox | undefined = own;
    try {
      const service = serviceFor({ upstream: upstreamFor(SANDBOX_KEYS.globetrotter, own.url) });
      const first = await service.destinations('en');
      const brand = await service.brand();
      await own.close();
      current = undefined;

      await expect(service.refresh()).rejects.toMatchObject({ code: 'upstream_unavailable' });
      expect(service.status()).toMatchObject({ loaded: true, stale: true });
      const stale = await service.destinations('en');
      expect(stale.etag).toBe(first.etag);
      expect(stale.destinations).toEqual(first.destinations);
      expect((await service.plans('DE', 'en')).plans.length).toBeGreaterThan(0);
      expect(await service.brand()).toEqual(brand);

      current = await startSandbox({ port });
      await service.refresh();
      expect(service.status()).toMatchObject({ loaded: true, stale: false, lastError: null });
    } finally {
      await current?.close();
    }
  });

  it('answers upstream_unavailable when nothing was ever loaded, with a default brand', async () => {
    const down = await startSandbox({});
    const url = down.url;
    await down.close();
    const service = serviceFor({
      upstream: upstreamFor(SANDBOX_KEYS.globetrotter, url),
      displayName: 'Demo widget',
      brandOverrides: { primaryColor: '#FF6600' },
    });
    await expect(service.destinations('en')).rejects.toMatchObject({ code: 'upstream_unavailable' });
    expect(await service.brand()).toMatchObject({
      displayName: 'Demo widget',
      primaryColor: '#FF6600',
      logoUrl: null,
    });
  });

  it('brands the widget from the account, with the widget’s overrides on top', async () => {
    const service = serviceFor({
      brandOverrides: { primaryColor: '#123abc', termsUrl: 'https://shop.example/terms' },
      accountLogo: { address: (source) => `https://bff.example/logo?of=${source}` },
    });
    const account = await upstreamFor().getAccount();
    const accountLogoUrl = account.brandOverrides?.logoUrl ?? account.brand.logoUrl;
    expect(await service.accountLogoUrl()).toBe(accountLogoUrl);
    expect(await service.brand()).toEqual({
      displayName: account.brandOverrides?.displayName ?? account.brand.displayName,
      // Served by the BFF, never from the upstream's host.
      logoUrl: `https://bff.example/logo?of=${accountLogoUrl}`,
      primaryColor: '#123ABC',
      supportEmail: account.brandOverrides?.supportEmail ?? account.brand.supportEmail,
      supportUrl: account.brandOverrides?.supportUrl ?? account.brand.supportUrl,
      termsUrl: 'https://shop.example/terms',
      privacyUrl: null,
    });
  });

  it('never writes an API key to a log line', () => {
    const logs = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(10);
    expect(logs).not.toContain(SANDBOX_KEYS.globetrotter);
    expect(logs).not.toContain(SANDBOX_KEYS.aurora);
  });
});
