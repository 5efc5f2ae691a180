/**
 * The example's Vite build: Vue, with `<esim-widget>` compiled as a custom element (not resolved as a Vue
 * component), and relative asset URLs so that the built app runs from any folder.
 */
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'esim-widget' } } })],
});
