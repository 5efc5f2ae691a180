/**
 * @module
 * The system programs the test suite drives: Chromium (the browser tests; Playwright cannot download its
 * own browser here), redis-server (the several-instances tests), openssl (the mTLS tests make a throwaway
 * PKI with it, never committed; the release test a certificate for nginx), Go (a partner's server compiled on
 * the client generated from the BFF's OpenAPI document, standard library only), nginx (the release test runs
 * the release's nginx config, with TLS, in front of the release; the benchmarks put it in front of the public
 * catalog) and systemd-analyze (the release test verifies the release's systemd unit). Missing ones are
 * installed from Debian's packages when this runs as root with apt-get; otherwise it stops with the command to
 * run. Never a silent skip.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const NEEDS = [
  { what: 'Chromium', paths: [process.env.ESIM_E2E_CHROMIUM, '/usr/bin/chromium'], apt: 'chromium' },
  {
    what: 'redis-server',
    paths: ['/usr/bin/redis-server', '/usr/local/bin/redis-server'],
    apt: 'redis-server',
  },
  { what: 'openssl', paths: ['/usr/bin/openssl', '/usr/local/bin/openssl'], apt: 'openssl' },
  // A partner's server in Go compiles against the client generated from the BFF's /openapi.json.
  { what: 'Go', paths: ['/usr/bin/go', '/usr/local/go/bin/go'], apt: 'golang-go' },
  // The release test runs the release's deploy/ files: its nginx site with TLS, and its systemd unit verified.
  { what: 'nginx', paths: ['/usr/sbin/nginx'], apt: 'nginx' },
  { what: 'systemd-analyze', paths: ['/usr/bin/systemd-analyze'], apt: 'systemd' },
];

const missing = NEEDS.filter(({ paths }) => !paths.some((path) => path && existsSync(path)));
if (missing.length === 0) process.exit(0);

const packages = [...missing.map(({ apt }) => apt), 'fonts-noto-color-emoji'];
const names = missing.map(({ what }) => what).join(' and ');
const canInstall = process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0;
if (!canInstall) {
  console.error(
    `The tests need ${names}. Install them (Debian/Ubuntu: sudo apt-get install ${packages.join(' ')}), ` +
      'or point ESIM_E2E_CHROMIUM at a Chromium binary.',
  );
  process.exit(1);
}

console.log(`Installing ${names} from Debian's packages (${packages.join(', ')})…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
