/**
 * The product's error tree and its catalogue. Every error a request can end in is a KlebbError
 * with an HTTP status and a stable `code` taken from ERROR_CODES below, so a code a client can
 * receive is defined here and nowhere else (docs/API.md "Codes" lists the same table; a test
 * checks both directions). One handler (src/http/error-handler.ts) turns a KlebbError into
 * `{error, code, details?}`. Route handlers never build error responses by hand.
 */

/** One entry of the catalogue: the HTTP statuses the code is answered with, and what it means. */
export interface ErrorCodeInfo {
  /**
   * Statuses the code comes with; empty for codes that only appear in a chat or MCP tool's
   * result (no HTTP answer of their own).
   */
  status: readonly number[];
  /** One line for people: when a client gets this code. */
  meaning: string;
}

/**
 * Every error `code` a client can receive, with its statuses and meaning. Codes of the card
 * loader's `errors` list (docs/API.md "List cards") describe files, not failed requests, and are
 * not here.
 */
export const ERROR_CODES = {
  // ---- malformed requests (400) ----
  BAD_REQUEST: {
    status: [400],
    meaning: 'malformed input: a missing or wrong-typed field, a bad query value, a request that is not HTTP',
  },
  HOST_REQUIRED: { status: [400], meaning: 'an HTTP/1.1 request without a Host header' },
  REQUEST_TIMEOUT: { status: [408], meaning: 'the request took too long to arrive' },
  HEADERS_TOO_LARGE: { status: [431], meaning: 'the request headers are too large' },
  BAD_PATH: { status: [400], meaning: 'a row path that does not parse (row error)' },
  BAD_IF_MATCH: {
    status: [400],
    meaning: 'an If-Match header that is neither * nor a list of quoted data ETags such as "v42"',
  },
  INVALID_JSON: {
    status: [400],
    meaning:
      'the body is not valid JSON, holds a prototype key, is nested too deep or holds a lone surrogate',
  },
  NUMBER_OUT_OF_RANGE: { status: [400], meaning: 'a number the server cannot keep exactly as written' },
  INVALID_UTF8: { status: [400], meaning: 'the body holds bytes that are not UTF-8' },
  BAD_URL: { status: [400], meaning: 'the URL path holds a %-escape that does not decode to UTF-8 text' },
  URI_TOO_LONG: { status: [414], meaning: 'a part of an API path is longer than 100 characters' },
  EMPTY_BODY: { status: [400], meaning: 'Content-Type: application/json with an empty body' },
  BAD_CONTENT_ENCODING: {
    status: [400],
    meaning: 'a body that does not decode with its Content-Encoding (a corrupt gzip)',
  },
  BAD_CONTENT_LENGTH: { status: [400], meaning: 'the body is not as long as its Content-Length said' },
  INVALID_SUBSCRIPTION: { status: [400], meaning: 'a push subscription with a bad endpoint or keys' },
  SELECTION_INVALID: { status: [400], meaning: 'an import selection naming an unknown card' },
  SELECTION_EMPTY: { status: [400], meaning: 'an import selection that selects nothing' },
  BODY_READ_FAILED: { status: [400], meaning: 'the upload broke off before its body was read' },
  BAD_FILENAME: { status: [400], meaning: 'a report upload whose file name is not usable' },
  UNSUPPORTED_FILE_TYPE: { status: [400], meaning: 'a report upload that is not a PDF, image, DOCX or text' },
  EMPTY_FILE: { status: [400], meaning: 'a report upload with no bytes' },
  CONTENT_MISMATCH: {
    status: [400],
    meaning: "a report upload whose bytes do not match its file name's type",
  },
  CHALLENGE_EXPIRED: { status: [400], meaning: 'a passkey ceremony answered after its challenge expired' },
  NO_PASSKEYS: { status: [400], meaning: 'a passkey sign-in before any passkey is registered' },
  UNKNOWN_PASSKEY: { status: [400], meaning: 'a sign-in with a passkey this server does not know' },
  VERIFICATION_FAILED: { status: [400], meaning: 'the passkey answer could not be verified' },
  COUNTER_REPLAY: {
    status: [400],
    meaning: "the passkey's signature counter went backwards (a cloned key?)",
  },
  // ---- credentials (401, 403) ----
  UNAUTHORIZED: { status: [401], meaning: 'no credentials, or wrong ones' },
  FORBIDDEN: {
    status: [403],
    meaning: 'signed in, but this is not allowed (a report withheld until checked)',
  },
  NOT_WRITEABLE: {
    status: [403],
    meaning: 'a data, row or entry write to a card not writeable from the web app',
  },
  BAD_ORIGIN: { status: [403], meaning: 'a state-changing request from a foreign Origin' },
  READ_ONLY_TOKEN: { status: [403], meaning: 'a write made with a read-only token' },
  CREDENTIALS_NEED_SIGN_IN: { status: [403], meaning: 'an agent token on a route that manages credentials' },
  SIGN_IN_REQUIRED: { status: [403], meaning: 'passkey and invite routes need a passkey session' },
  PERSON_REQUIRED: { status: [403], meaning: 'token routes need a person signed in with a passkey' },
  SETUP_CLOSED: { status: [403], meaning: 'the setup code is spent: the first passkey exists' },
  REGISTRATION_CLOSED: { status: [403], meaning: 'registration without a setup code or invite' },
  INVITE_UNKNOWN: { status: [403], meaning: 'an invite code that is not valid' },
  INVITE_EXPIRED: { status: [403], meaning: 'an invite code that has expired' },
  INVITE_USED: { status: [403], meaning: 'an invite code that was already used' },
  HAND_WRITTEN: { status: [403], meaning: 'a report action that only uploaded reports allow' },
  DEMO_MODE: { status: [403, 410, 503], meaning: 'switched off in demo mode' },
  // ---- not found (404) ----
  NOT_FOUND: { status: [404], meaning: 'no such route; every admin route while KLEBB_ADMIN_TOKEN is unset' },
  CARD_NOT_FOUND: { status: [404], meaning: 'no card with that id' },
  TEMPLATE_NOT_FOUND: { status: [404], meaning: 'no card template with that templateId' },
  CARD_EXISTS: {
    status: [409],
    meaning:
      'a card from that template, or one following that phone metric, is already there (copy: true adds another)',
  },
  UNKNOWN_VIEW: { status: [404], meaning: 'a view name the server does not know' },
  NO_ENTRY: { status: [404], meaning: 'no row at that index of an entry route' },
  NO_MATCH: { status: [404], meaning: 'a row path leads nowhere (row error)' },
  CONVERSATION_NOT_FOUND: { status: [404], meaning: 'no conversation with that id' },
  NO_RUNNING_TURN: { status: [404], meaning: 'stopping a conversation turn when none is running' },
  APPROVAL_NOT_FOUND: { status: [404], meaning: 'answering an approval request that does not exist' },
  CHANGE_SET_NOT_FOUND: { status: [404], meaning: 'undoing a change set that does not exist' },
  SUBSCRIPTION_NOT_FOUND: { status: [404], meaning: 'a heartbeat for an endpoint that is not subscribed' },
  NOTIFICATION_NOT_FOUND: { status: [404], meaning: 'no reminder with that card id and reminder id' },
  NO_SNAPSHOT: { status: [404], meaning: 'a restore or roll back with no such snapshot' },
  NO_UPLOAD: { status: [404], meaning: 'an import start with no uploaded archive' },
  UNKNOWN_METRIC: { status: [404], meaning: 'a Health Auto Export metric that was never discovered' },
  UNKNOWN_ACTION: { status: [404], meaning: 'a Health Auto Export discovery action that does not exist' },
  REPORT_NOT_FOUND: { status: [404], meaning: 'no report with that name' },
  ORIGINAL_MISSING: { status: [404], meaning: "a report's original file is no longer kept" },
  NO_TEXT: { status: [404], meaning: 'a report without text read from it' },
  MCP_SESSION_NOT_FOUND: {
    status: [404],
    meaning: 'an Mcp-Session-Id the server does not know (ended, or never given)',
  },
  // ---- conflicts (409) ----
  CONFLICT: { status: [409], meaning: 'the request conflicts with the current state' },
  APPROVAL_RESOLVED: { status: [409], meaning: 'an approval request already answered, expired or stopped' },
  APPROVAL_MISMATCH: { status: [409], meaning: 'an approval answer for another conversation or digest' },
  ID_IN_USE: { status: [409], meaning: 'creating a card whose id is taken' },
  AMBIGUOUS: { status: [409], meaning: 'a row filter matches more than one element (row error)' },
  FILE_MISSING: { status: [409], meaning: 'a change to a card whose file is gone from disk' },
  FILE_INVALID: {
    status: [409],
    meaning: 'a change to a card whose file holds a hand edit that is not valid JSON',
  },
  FILE_CHANGED: { status: [409], meaning: "the card's file was saved by hand while this write was made" },
  CARD_LOADING: { status: [409], meaning: 'a write to a card whose large file is being loaded' },
  NOT_A_LIST: { status: [409], meaning: 'an entry write to a card whose data is one object' },
  DAY_FULL: { status: [409], meaning: 'an entry moved to a day that already holds its most readings' },
  JOB_ACTIVE: { status: [409], meaning: 'an import, restore or roll back while one is applying' },
  BAD_STATE: { status: [409], meaning: 'an import apply with nothing staged or a spent confirmation nonce' },
  EXPORT_RUNNING: { status: [409], meaning: 'an export while another one is still streaming' },
  UNDO_CONFLICT: { status: [409], meaning: 'undoing a change set that a later change overlaps' },
  ALREADY_UNDONE: { status: [409], meaning: 'undoing a change set that was already undone' },
  UNDO_UNAVAILABLE: {
    status: [409],
    meaning: 'undoing a change set whose before image was too large to keep',
  },
  TURN_RUNNING: { status: [409], meaning: 'a conversation that has a chat turn running' },
  TOKEN_EXISTS: { status: [409], meaning: 'creating the Health Auto Export token when one exists' },
  CONFIG_INVALID: { status: [409], meaning: 'the Health Auto Export settings file is not valid' },
  TOKEN_NAME_TAKEN: { status: [409], meaning: 'a named token whose name is taken' },
  TOO_MANY_TOKENS: { status: [409], meaning: 'more named tokens than an instance keeps' },
  PASSKEY_EXISTS: { status: [409], meaning: 'registering a passkey that is already registered' },
  LAST_PASSKEY: { status: [409], meaning: 'removing the only passkey' },
  REPORT_QUOTA: { status: [409], meaning: 'a report upload past the instance quota' },
  NOTHING_TO_VERIFY: { status: [409], meaning: 'checking a report that needs no check' },
  REPORT_BUSY: { status: [409], meaning: 'a report that is still being read' },
  IMPORT_RUNNING: { status: [409], meaning: 'an Apple Health upload while another one is being imported' },
  // ---- preconditions, sizes, types (412 to 431) ----
  PRECONDITION_FAILED: { status: [412], meaning: "If-Match does not match the card's data ETag" },
  ENTRY_CHANGED: { status: [412], meaning: 'an entry edit whose expected row differs from the stored one' },
  NOT_ACCEPTABLE: {
    status: [406],
    meaning: 'an MCP request whose Accept header does not take both JSON and event streams',
  },
  PAYLOAD_TOO_LARGE: { status: [413], meaning: 'the body is larger than allowed' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: [415],
    meaning: 'a body whose Content-Type is not JSON (or the upload type)',
  },
  UNSUPPORTED_ENCODING: {
    status: [415],
    meaning: 'a body whose Content-Encoding is not gzip, deflate or br',
  },
  // ---- well-formed but invalid (422) ----
  INVALID: { status: [422], meaning: 'well-formed but breaks a rule; details names each field' },
  REQUIRE_ANY: { status: [422], meaning: "an entry with none of writeable.requireAny's keys" },
  INVALID_ENTRY: {
    status: [422],
    meaning: 'an entry missing a required value or with a value that does not fit',
  },
  DATE_NOT_ALLOWED: { status: [422], meaning: "an entry for a day the card's date allowance refuses" },
  IDEMPOTENCY_KEY_REUSED: {
    status: [422],
    meaning: 'an Idempotency-Key already used for a write with another body',
  },
  WRONG_TYPE: { status: [422], meaning: 'a value of the wrong kind for the operation (row error)' },
  ORDER_MISMATCH: {
    status: [422],
    meaning: 'a row reorder list that is not exactly the set of key values (row error)',
  },
  NOT_AN_EXPORT: { status: [422], meaning: 'an Apple Health upload that is not an export' },
  ZIP_NOT_A_ZIP: { status: [422], meaning: 'an import archive that is not a readable zip' },
  ZIP_UNSAFE_NAME: { status: [422], meaning: 'an import archive entry with an unsafe name' },
  ZIP_SYMLINK: { status: [422], meaning: 'an import archive entry that is a symbolic link' },
  ZIP_NOT_A_FILE: { status: [422], meaning: 'an import archive entry that is not a file' },
  ZIP_ENCRYPTED: { status: [422], meaning: 'an encrypted import archive entry' },
  ZIP_METHOD: { status: [422], meaning: 'an import archive entry compressed other than store or deflate' },
  ZIP_DUPLICATE: { status: [422], meaning: 'two import archive entries with the same name' },
  ZIP_TOO_MANY: { status: [422], meaning: 'an import archive with too many entries' },
  ZIP_TOO_LARGE: { status: [422], meaning: 'an import archive that unpacks too large' },
  ZIP_RATIO: { status: [422], meaning: 'an import archive entry compressed suspiciously well' },
  ZIP_CORRUPT: { status: [422], meaning: 'an import archive entry whose data does not match its header' },
  IMPORT_NO_MANIFEST: { status: [422], meaning: 'an import archive without klebb-export.json' },
  IMPORT_MANIFEST_TOO_LARGE: { status: [422], meaning: "an import archive's klebb-export.json is too large" },
  IMPORT_WRONG_FORMAT: { status: [422], meaning: 'an import archive of another format' },
  IMPORT_WRONG_VERSION: {
    status: [422],
    meaning: 'an import archive of a format version this server does not read',
  },
  IMPORT_BAD_MANIFEST: {
    status: [422],
    meaning: "an import archive's manifest is not JSON or has a bad field",
  },
  IMPORT_INVENTORY_MISMATCH: {
    status: [422],
    meaning: "an import archive's files do not match its inventory",
  },
  IMPORT_CHECKSUM: {
    status: [422],
    meaning: "an import archive file's size or sha256 differs from the inventory",
  },
  IMPORT_ROW_COUNT: { status: [422], meaning: 'an import archive table with another row count than listed' },
  IMPORT_BAD_ROW: {
    status: [422],
    meaning: 'an import archive row that is not valid JSON or not a row of its table',
  },
  IMPORT_BAD_CARD: { status: [422], meaning: 'an import archive card whose meta.id is not its card' },
  SNAPSHOT_DAMAGED: {
    status: [422],
    meaning: 'a restore or roll back from a snapshot whose files were damaged after it was taken',
  },
  IMPORT_FAILED: { status: [], meaning: 'an import that failed for another reason (in the import status)' },
  IMPORT_INTERRUPTED: { status: [], meaning: 'an import cut short by a restart (in the import status)' },
  // ---- others ----
  CONFIRM_REQUIRED: { status: [428], meaning: 'an import or restore over data without confirm: "REPLACE"' },
  RATE_LIMITED: { status: [429], meaning: 'too many requests; Retry-After says when to try again' },
  TEST_TOO_SOON: {
    status: [429],
    meaning: 'a second test push of the same reminder within a minute of one that reached a device',
  },
  GATEWAY_ERROR: {
    status: [429, 500, 502, 504],
    meaning: "the chat model's endpoint failed; the status says how",
  },
  INTERNAL: { status: [500], meaning: 'anything unexpected; nothing was changed' },
  INGEST_DISABLED: { status: [501], meaning: 'a Health Auto Export push while no token is set' },
  UNAVAILABLE: { status: [503], meaning: 'a service this request needs is not available' },
  IMPORT_FROZEN: {
    status: [503],
    meaning: 'any other /api/ or /mcp request, and every write, while an import or restore is applied',
  },
  STORAGE_BUSY: { status: [503], meaning: "another program held the database's write lock too long" },
  NOT_SAVED: {
    status: [503],
    meaning:
      'the disk reported an error: while writing, nothing was kept; while flushing the writes, they may or may not have been kept',
  },
  CHAT_NOT_CONFIGURED: { status: [503], meaning: 'a chat message while CHAT_ENDPOINT_URL is unset' },
  PASSKEYS_UNREADABLE: { status: [503], meaning: 'the passkey file cannot be read' },
  OFFLINE: { status: [503], meaning: "answered by the app's service worker to a write made offline" },
  DISK_FULL: { status: [507], meaning: 'the disk is full; nothing was changed' },
  // ---- chat and MCP tool results only ----
  UNKNOWN_TOOL: { status: [], meaning: 'a tool call naming a tool that does not exist' },
  UNKNOWN_PROMPT: { status: [], meaning: 'an MCP prompts/get naming a prompt that does not exist' },
  BAD_ARGUMENTS: { status: [], meaning: "a tool call whose arguments do not fit the tool's schema" },
  APPROVAL_REQUIRED: {
    status: [],
    meaning: "a destructive tool call where the person's approval cannot be asked",
  },
  RESULT_TOO_LARGE: {
    status: [],
    meaning: 'an MCP tool result larger than an MCP client takes (1 MB); read it in pages',
  },
} as const satisfies Record<string, ErrorCodeInfo>;

/** A code of the catalogue. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** One problem with one field of an input. `path` is a dotted/JSON-pointer-like location ("meta.id"). */
export interface FieldError {
  path: string;
  message: string;
}

/** Base class: `status` is the HTTP status, `code` a stable machine-readable name from ERROR_CODES. */
export class KlebbError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldError[],
    /** Extra top-level properties for the JSON body (e.g. row errors add `path` and `id`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'KlebbError';
  }
}

/**
 * A state of the server that passes (a database locked by another program, a restore being
 * applied): its answer carries `Retry-After` with `retryAfterSeconds`.
 */
export class RetryLaterError extends KlebbError {
  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(status, code, message);
    this.name = 'RetryLaterError';
  }
}

/** 400: the request is malformed (bad JSON, wrong `$schema`, missing required field). */
export const badRequest = (message: string, details?: FieldError[], code: ErrorCode = 'BAD_REQUEST') =>
  new KlebbError(400, code, message, details);

/** 401: no or wrong credentials. */
export const unauthorized = (message = 'Unauthorized') => new KlebbError(401, 'UNAUTHORIZED', message);

/** 403: authenticated, but this write is not allowed (e.g. `meta.writeable.fromWebapp` is not true). */
export const forbidden = (message: string, code: ErrorCode = 'FORBIDDEN') =>
  new KlebbError(403, code, message);

/** 404: the named thing does not exist. */
export const notFound = (message: string, code: ErrorCode = 'NOT_FOUND', extra?: Record<string, unknown>) =>
  new KlebbError(404, code, message, undefined, extra);

/** 409: the request conflicts with current state (duplicate id, a running turn). */
export const conflict = (message: string, code: ErrorCode = 'CONFLICT') => new KlebbError(409, code, message);

/** 412: an `If-Match` precondition no longer holds (RFC 9110 §13.1.1). */
export const preconditionFailed = (message: string) => new KlebbError(412, 'PRECONDITION_FAILED', message);

/** 413: the body is larger than allowed. */
export const payloadTooLarge = (message: string) => new KlebbError(413, 'PAYLOAD_TOO_LARGE', message);

/** 422: well-formed but invalid content; `details` names each bad field. */
export const invalid = (message: string, details?: FieldError[], code: ErrorCode = 'INVALID') =>
  new KlebbError(422, code, message, details);

/** 503: a service this request needs is not configured or not available. */
export const unavailable = (message: string, code: ErrorCode = 'UNAVAILABLE') =>
  new KlebbError(503, code, message);

/**
 * Row-path errors: BAD_PATH 400, NO_MATCH 404, AMBIGUOUS 409,
 * WRONG_TYPE 422, ORDER_MISMATCH 422. The body carries `code`, `path` and the card `id`.
 */
export type RowErrorCode = 'BAD_PATH' | 'NO_MATCH' | 'AMBIGUOUS' | 'WRONG_TYPE' | 'ORDER_MISMATCH';

const ROW_ERROR_STATUS: Record<RowErrorCode, number> = {
  BAD_PATH: 400,
  NO_MATCH: 404,
  AMBIGUOUS: 409,
  WRONG_TYPE: 422,
  ORDER_MISMATCH: 422,
};

/** A row operation failed; `path` is the row path as given, `id` the card id when known. */
export class RowError extends KlebbError {
  constructor(
    readonly rowCode: RowErrorCode,
    message: string,
    readonly rowPath: string,
    readonly cardId?: string,
  ) {
    super(ROW_ERROR_STATUS[rowCode], rowCode, message, undefined, { path: rowPath, id: cardId });
    this.name = 'RowError';
  }
}
