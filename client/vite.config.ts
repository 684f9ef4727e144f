// Builds the Solid client into console/dist at the repo root, which the server serves. Assets are hashed,
// nothing is inlined as script (the CSP is default-src 'self'), and the last line of the build prints the
// gzip size of the JavaScript the first page load needs.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import solid from 'vite-plugin-solid';
import { initialLoadSize } from './build/initial-load.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  publicDir: 'public',
  plugins: [solid(), initialLoadSize(100 * 1024)],
  build: {
    outDir: fileURLToPath(new URL('../console/dist', import.meta.url)),
    // Not emptied: the plugin below prunes old hashed files once they are ten minutes old.
    emptyOutDir: false,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:7878' } },
});
