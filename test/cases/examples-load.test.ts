/**
 * Every real-world example manifest of the cases folder (manifests/examples) dropped into a fresh
 * data folder loads as a card, imports its data with a backup, survives a restart without a
 * second import (test/helpers/manifest-folder-load.ts).
 */
import { manifestFolderLoadSuite } from '../helpers/manifest-folder-load.js';
import { casePath } from './cases-dir.js';

manifestFolderLoadSuite(casePath('manifests', 'examples'), 'the real-world examples');
