/**
 * @module
 * The console's entry: applies the theme chosen in this browser before the first paint and renders the app.
 */
import { render } from 'preact';
import { ConsoleApp } from './app/console-app';
import { applyTheme, preferredTheme } from './app/preferences';
import './theme/theme.css';

applyTheme(preferredTheme());
const root = document.getElementById('console');
if (root) render(<ConsoleApp />, root);
