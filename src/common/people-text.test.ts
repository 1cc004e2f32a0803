import { describe, expect, it } from 'vitest';
import { readTemplate, templateIds } from '../../test/helpers/templates.js';
import { descriptionForPeople } from './people-text.js';

describe('card descriptions for people', () => {
  it('leaves out row formats, metric names and data paths', () => {
    expect(
      descriptionForPeople(
        'Steps walked per day, from the phone or watch via Health Auto Export (step_count): {date, count: number}.',
      ),
    ).toBe('Steps walked per day, from the phone or watch via Health Auto Export.');
    expect(
      descriptionForPeople(
        "Morning weight, one row a day: {date: 'YYYY-MM-DD', kg: number}. Weigh after waking, before breakfast.",
      ),
    ).toBe('Morning weight, one row a day. Weigh after waking, before breakfast.');
    expect(
      descriptionForPeople(
        'Prescribed medicines with their schedules. data.items[]: {name, dose}; data.groups[] puts them under headings.',
      ),
    ).toBe('Prescribed medicines with their schedules.');
    expect(descriptionForPeople('Posted with POST /api/manifests.')).toBe('');
    expect(descriptionForPeople(undefined)).toBe('');
    expect(descriptionForPeople('Plain words stay as they are.')).toBe('Plain words stay as they are.');
  });

  it('every template’s description reads as words for people', () => {
    for (const id of templateIds()) {
      const shown = descriptionForPeople(readTemplate(id).description);
      expect([id, shown]).not.toEqual([
        id,
        expect.stringMatching(/[{}[\]`$]|\w_\w|\bdata\.\w|\/api\/|\.json/),
      ]);
      expect([id, shown.length > 10]).toEqual([id, true]);
    }
  });
});
