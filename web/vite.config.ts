/**
 * Vite config for the browser app: root `web/`,
 * output `dist/web/` (served by src/http/web-routes.ts), Preact TSX compiled by Vite's own oxc
 * transform (no plugin). Run as `vite build --config web/vite.config.ts` (npm run build:web).
 *
 * Every text file of the build also gets a brotli (`.br`) and a gzip (`.gz`) copy beside it,
 * made once here by vite-plugin-compression2, so that the server (@fastify/static with
 * `preCompressed`) sends the smaller copy a browser accepts without compressing per request.
 * The plugin rather than a post-build script of our own: it hooks the build's own output list
 * (public/ files included) and is kept up with Vite's releases.
 */
import { fileURLToPath } from 'node:url';
import { constants } from 'node:zlib';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/** Build files worth a compressed copy (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|ico)$/;

const webDir = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: webDir,
  base: '/',
  // web/public: the manifest, icons and service worker, copied as they are to the root of
  // dist/web (served by src/http/pwa-routes.ts)
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [
    compression({
      include: COMPRESSIBLE,
      // below 1 KiB the headers outweigh what compression saves
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
        }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      skipIfLargerOrEqual: true,
      logLevel: 'silent',
    }),
  ],
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
