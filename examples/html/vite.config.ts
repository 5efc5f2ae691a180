/** The example's Vite build: relative asset URLs, so that the built page runs from any folder. */
import { defineConfig } from 'vite';

export default defineConfig({ base: './' });
