/**
 * The example's Vite build: React, and relative asset URLs so that the built app runs from any folder.
 * `dedupe` makes the widget's `react` import this app's React, as an install from npm does (the workspace links
 * the widget's folder, whose own dev dependencies hold React 19).
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  plugins: [react()],
  resolve: { dedupe: ['react', 'react-dom'] },
});
