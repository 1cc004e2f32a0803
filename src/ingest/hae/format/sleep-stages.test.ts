import { describe, expect, it } from 'vitest';
import { sleepStageOf } from './sleep-stages.js';

describe('sleepStageOf', () => {
  it.each([
    ['In Bed', 'inBed'],
    ['Im Bett', 'inBed'],
    ['Au lit', 'inBed'],
    ['En la cama', 'inBed'],
    ['W łóżku', 'inBed'],
    ['Asleep', 'asleep'],
    ['Schlaf', 'asleep'],
    ['Sommeil', 'asleep'],
    ['Schlafend', 'asleep'],
    ['Core', 'core'],
    ['Kern', 'core'],
    ['Kernschlaf', 'core'],
    ['Sueño ligero', 'core'],
    ['Essencial', 'core'],
    ['コア', 'core'],
    ['核心睡眠', 'core'],
    ['Deep', 'deep'],
    ['Tiefschlaf', 'deep'],
    ['Sommeil profond', 'deep'],
    ['Diepe slaap', 'deep'],
    ['Djupsömn', 'deep'],
    ['Глубокий', 'deep'],
    ['深度睡眠', 'deep'],
    ['REM-Schlaf', 'rem'],
    ['Paradoxal', 'rem'],
    ['レム睡眠', 'rem'],
    ['快速动眼', 'rem'],
    ['Awake', 'awake'],
    ['Wach', 'awake'],
    ['Éveillé', 'awake'],
    ['Vågen', 'awake'],
    ['清醒', 'awake'],
    ['Unspecified', 'unspecified'],
    ['Nicht angegeben', 'unspecified'],
    ['HKCategoryValueSleepAnalysisAsleepUnspecified', 'unspecified'],
    ['HKCategoryValueSleepAnalysisAsleepREM', 'rem'],
    ['asleepCore', 'core'],
    ['Asleep (Deep)', 'deep'],
  ])('%s → %s', (name, stage) => {
    expect(sleepStageOf(name)).toBe(stage);
  });

  it.each(['Schlummer', 'nap', '', '   ', 'In Bed Awake', '42'])('%j is no stage', (name) => {
    expect(sleepStageOf(name)).toBeUndefined();
  });
});
