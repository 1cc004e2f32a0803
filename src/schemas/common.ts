/**
 * Building blocks of the input contract (src/schemas/): TypeBox schemas that the REST routes
 * (Fastify validates them, src/http/validation.ts) and the chat and MCP tools (the tool registry
 * checks arguments with them) share, so both sides accept exactly the same input.
 */
import { FormatRegistry, type TObject, type TProperties, Type } from '@sinclair/typebox';
import { isIsoDate } from '../common/dates.js';

// `format: 'date'` means a day of the calendar for the tools' checks (TypeBox) as it does for the
// routes' (Ajv with its full formats): 2026-02-30 and 2026-13-01 are refused by both
FormatRegistry.Set('date', (s) => isIsoDate(s));

/**
 * A day of the calendar written YYYY-MM-DD, for every query or argument that takes a day: an
 * impossible day (2026-02-30) is refused naming the field, never read as another day.
 */
export const CalendarDay = (description: string) =>
  Type.String({
    format: 'date',
    description,
    errorMessage: 'must be a day of the calendar written YYYY-MM-DD',
  });

/** A card id as given in a path or a tool call (its rules, pattern and length, are checked when a card is created). */
export const CardId = Type.String({ minLength: 1, description: 'meta.id' });

/** `:id` of the card routes. */
export const CardIdParams = Type.Object({ id: CardId });

/** Any JSON object (its fields are checked by the plain function the route calls). */
export const AnyObject = (description: string) =>
  Type.Object({}, { additionalProperties: true, description });

/**
 * A tool's arguments: the card `id` plus the fields of a REST body or query, so the tool and the
 * route take the same fields under the same rules.
 */
export function withCardId<P extends TProperties>(fields: TObject<P>) {
  return Type.Object({ id: CardId, ...fields.properties });
}
