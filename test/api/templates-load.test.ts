/**
 * Every card template of templates/ dropped into a fresh data folder loads as a card, imports its
 * data with a backup, survives a restart without a second import (test/helpers/manifest-folder-load.ts).
 */
import { manifestFolderLoadSuite } from '../helpers/manifest-folder-load.js';
import { templatesDir } from '../helpers/templates.js';

manifestFolderLoadSuite(templatesDir, 'the card templates');
