/**
 * Every real-world example manifest of the cases folder (manifests/examples) renders on each page
 * it belongs to, in Debian's Chromium (test/e2e/manifest-folder-render.ts).
 */
import { manifestFolderRenderSuite } from '../e2e/manifest-folder-render.js';
import { casePath } from './cases-dir.js';

manifestFolderRenderSuite(casePath('manifests', 'examples'), 'the real-world examples');
