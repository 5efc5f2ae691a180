/**
 * @module
 * Test setup: the pages and message tables load lazily and are transformed on first use, which can take a few
 * seconds in a cold run, so DOM queries wait longer than testing-library's 1 s default.
 */
import { configure } from '@testing-library/preact';

configure({ asyncUtilTimeout: 5000 });
