/**
 * @module
 * Builds the demo's pages into `demo/dist`, which the BFF serves at `/`: the showcase (`index.html`) and the
 * npm-embed SPA (`spa/index.html`). `public/plain.html` is copied as it is: the script-tag-only embed.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const page = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: { showcase: page('./index.html'), spa: page('./spa/index.html') },
    },
  },
});
