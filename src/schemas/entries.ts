/**
 * The web app's entry writes (docs/API.md "Entries (the web app's writes)"): what
 * `POST /api/manifests/:id/entries` and `PUT`/`DELETE /api/manifests/:id/entries/:index` take.
 * Whether the entry fits the card's inputs is checked by src/cards/card-entries.ts (422).
 */
import { Type } from '@sinclair/typebox';
import { CardId } from './common.js';

/** `:id/:index`: the index is a position in the card's data array, from 0. */
export const EntryParams = Type.Object({
  id: CardId,
  // a value that is no whole number is refused in the words every URL number gets
  // (src/http/url-numbers.ts)
  index: Type.Integer({
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'the row position, from 0',
  }),
});

/**
 * The row as it was read, to refuse the write when it changed meanwhile (412 ENTRY_CHANGED). An
 * entry card's rows are objects, so anything else (`"x"`, `null`, a list) cannot be a row that was
 * read: a malformed request (400 naming `body.expect`), not a precondition that failed.
 */
const Expect = Type.Optional(
  Type.Object(
    {},
    {
      additionalProperties: true,
      description: 'the row as read, an object; a different stored row is 412 ENTRY_CHANGED',
    },
  ),
);

/** `POST` and `PUT` body. */
export const EntryBody = Type.Object({
  // required, but checked (and named `entry`) by the entry rules with the rest of the entry
  entry: Type.Optional(
    Type.Unknown({ description: "required: the row, an object with the card's input keys" }),
  ),
  expect: Expect,
});

/** `DELETE` body (optional). */
export const EntryDeleteBody = Type.Object({ expect: Expect });
