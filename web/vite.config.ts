/**
 * Vite config for the browser app: root `web/`,
 * output `dist/web/` (served by src/http/web-routes.ts), Preact TSX compiled by Vite's own oxc
 * transform (no plugin). Run as `vite build --config web/vite.config.ts` (npm run build:web).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const webDir = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: webDir,
  base: '/',
  // web/public: the manifest, icons and service worker, copied as they are to the root of
  // dist/web (served by src/http/pwa-routes.ts)
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: {
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    // every asset is a hashed file under /assets (the only public static route): no data: URLs
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: true,
  },
});
