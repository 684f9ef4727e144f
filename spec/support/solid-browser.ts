// Registers spec/support/solid-browser-hooks.mjs (see there why). Static imports are linked before any code
// runs, so a test that needs it imports this first and the modules under test with a dynamic import after.
import { register } from 'node:module';

register('./solid-browser-hooks.mjs', import.meta.url);
