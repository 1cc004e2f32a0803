/**
 * Every card template of templates/ renders on each page it belongs to, in Debian's Chromium
 * (test/e2e/manifest-folder-render.ts).
 */
import { templatesDir } from '../helpers/templates.js';
import { manifestFolderRenderSuite } from './manifest-folder-render.js';

manifestFolderRenderSuite(templatesDir, 'the card templates');
