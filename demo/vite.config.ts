/**
 * @module
 * Builds the demo's pages into `demo/dist`, which the BFF serves at `/`: the showcase (`index.html`) and the
 * npm-embed SPA (`spa/index.html`). `public/plain.html` is copied as it is: the script-tag-only embed.
 * Loaded with `--configLoader runner` (the `build` script), because it reads the workspace's TypeScript
 * packages (the demo partners, the locales), which Node cannot load as they are.
 */
import { fileURLToPath } from 'node:url';
import { LocaleSchema } from '@esim-embed/shared';
import { defineConfig, type Plugin } from 'vite';
import { DEMO_PARTNERS, MODE_HINTS } from './src/partners/demo-partners';

const page = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Writes the showcase's partner switcher, its language list and its default mode hint into the HTML, from the same table the
 * script uses: content that appeared only when the script ran pushed the widget's stage down (Lighthouse
 * counted a layout shift of 0.06 on a phone, 0.19 on a desktop).
 */
function showcaseControls(): Plugin {
  const partnerOptions = DEMO_PARTNERS.map(
    (partner, index) =>
      `<label><input type="radio" name="partner" value="${escapeHtml(partner.key)}"${index === 0 ? ' checked' : ''} />` +
      `<span><i class="swatch" style="--swatch: ${escapeHtml(partner.color)}"></i>` +
      `${escapeHtml(partner.name)} · ${partner.currency}</span></label>`,
  ).join('');
  // Each language under its own name, English first (the showcase's default), then the shared list's order.
  const locales = ['en', ...LocaleSchema.options.filter((locale) => locale !== 'en')];
  const localeOptions = locales
    .map((locale) => {
      const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
      return `<option value="${locale}">${escapeHtml(name.charAt(0).toLocaleUpperCase(locale) + name.slice(1))}</option>`;
    })
    .join('');
  return {
    name: 'esim-demo-showcase-controls',
    transformIndexHtml: (html) =>
      html
        .replace('<!-- partner-options -->', partnerOptions)
        .replace('<!-- locale-options -->', localeOptions)
        .replace('<!-- mode-hint -->', escapeHtml(MODE_HINTS.direct)),
  };
}

export default defineConfig({
  plugins: [showcaseControls()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: { showcase: page('./index.html'), spa: page('./spa/index.html') },
    },
  },
});
