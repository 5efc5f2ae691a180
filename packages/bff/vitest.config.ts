import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'bff', include: ['src/**/*.test.ts'] } });
