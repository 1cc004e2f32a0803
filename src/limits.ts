/**
 * Defaults and limits in one place; each name carries its unit. Where a number is documented
 * (docs/API.md, docs/CHAT-AGENT.md), the comment says where. The ones the web app needs too live
 * in src/common/limits.ts and are re-exported here, so the server imports every limit from here.
 */

export {
  DEFAULT_CARD_ORDER,
  FIRST_PLAUSIBLE_DAY,
  isPlausibleDay,
  LAST_PLAUSIBLE_DAY,
  MAX_CHAT_MESSAGE_CHARS,
  MAX_CONVERSATION_TITLE_CHARS,
  MAX_FEEDBACK_INTENT_CHARS,
} from './common/limits.js';

/** Default HTTP port. */
export const DEFAULT_PORT = 8080;
/** Default bind address. */
export const DEFAULT_HOST = '0.0.0.0';
/**
 * Longest part of a URL path (between two slashes, %-escapes decoded), characters as JavaScript
 * counts them (UTF-16 units, as the router does): a longer card id, conversation id or report name
 * is 414 URI_TOO_LONG on every route (docs/API.md "Codes"). No id Klebb makes comes near it.
 */
export const MAX_PATH_PART_CHARS = 100;
/** Largest request body accepted by default, bytes (10 MB). */
export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;
/** Longest card id. */
export const MAX_CARD_ID_CHARS = 64;
/**
 * Most card ids a dismissal of a combined-view suggestion may name: far more cards than one
 * category of a home holds, far fewer than a list sent to fill the disk.
 */
export const MAX_SUGGESTION_DISMISS_IDS = 200;
/** Most dismissals each dismissal file keeps (the oldest go first). */
export const MAX_DISMISSALS_KEPT = 500;
/** Card ids no card may take. */
export const RESERVED_CARD_IDS = [
  '_archive',
  '_virtual',
  '_meta',
  'auto-export',
  'reports',
  'index',
] as const;
/** Step between `meta.order` values written by reorder (100, 200, 300 ...). */
export const REORDER_STEP = 100;
/**
 * Most card ids one `POST /api/manifests/reorder` may list (docs/API.md "Reordering cards"): far
 * more cards than an instance has, few enough that a request cannot keep the server busy.
 */
export const MAX_REORDER_IDS = 1000;
/** How many ids (unknown, repeated) a refusal names before it counts the rest ("and 97 more"). */
export const MAX_IDS_NAMED = 5;
/** Largest `meta.cadence.expectDays` (docs/MANIFEST-SCHEMA.md, CADENCE_MAX_DAYS). */
export const CADENCE_MAX_DAYS = 730;
/** Notification limits (docs/CHAT-AGENT.md, tools table). */
export const MAX_NOTIFICATION_ITEMS = 10;
export const MAX_NOTIFICATION_TITLE_CHARS = 30;
export const MAX_NOTIFICATION_BODY_CHARS = 80;
export const MAX_NOTIFICATION_LABEL_CHARS = 80;
/** How long a vanished manifest file may stay gone before its card is dropped, ms. */
export const WATCH_SETTLE_MS = 250;
/**
 * A card whose file vanished (its card dropped, the deletion recorded) and that a file brings back
 * within this long is the same card returning, ms: a rename whose old name went before the new
 * one came (a sync tool deleting, then downloading), a data folder moved away and back. Its
 * History entry becomes the one change of the card, not a deletion and a creation.
 */
export const CARD_RETURN_MS = 60_000;
/**
 * Cards deleted on purpose whose reminder choices (on/off, privacy) and dismissed nudges the
 * server holds in memory for an undo of the deletion; the oldest deletion's go first.
 */
export const DELETED_CHOICES_KEPT = 200;
/** A manifest file that does not read whole is judged (reported broken, or dropped) only once it has been unchanged this long, ms. */
export const MANIFEST_SETTLE_MS = 600;
/**
 * A manifest file at least this large is read and parsed by a worker thread and its rows stored
 * in slices (src/cards/large-file-read.ts), so the server keeps answering while it loads, bytes.
 */
export const LARGE_MANIFEST_BYTES = 1024 * 1024;
/**
 * The largest card file the server reads, bytes: one made huge by mistake (a disk image or a log
 * saved under a .json name) is reported, not read into memory. 200 000 rows take about 30 MB.
 */
export const MAX_CARD_FILE_BYTES = 64 * 1024 * 1024;
/** Rows stored per transaction while a large manifest file's data is loaded (one turn of the event loop each). */
export const LOAD_SLICE_ROWS = 1000;
/**
 * How long a write waits for a database lock another program holds (a backup, the sqlite3
 * shell) before giving up with 503, ms. The wait blocks the server, so it is kept short.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;
/**
 * Size the `-wal` file is cut back to once SQLite starts reusing it, bytes. A reader holding a
 * long transaction (a backup tool, a `sqlite3` shell) keeps the log from being reused, so it grows
 * by every write made meanwhile; without a limit the file would keep that size for good. Twice
 * the log SQLite's automatic checkpoint lets build up (1000 pages of 4 KiB).
 */
export const WAL_SIZE_LIMIT_BYTES = 8 * 1024 * 1024;
/** The `Retry-After` of a 503 IMPORT_FROZEN answer (a write while an import or restore is applied), seconds. */
export const IMPORT_FROZEN_RETRY_AFTER_S = 5;
/** The `Retry-After` of a 503 STORAGE_BUSY answer, seconds. */
export const STORAGE_BUSY_RETRY_AFTER_S = 5;
/**
 * How long, and for how many writes, the answer of a write sent with an `Idempotency-Key` is kept
 * for a retry of it (src/http/idempotent-replies.ts): a retry comes within seconds or minutes
 * (a phone back in signal), and a day covers a phone that slept; the count bounds the memory.
 */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60_000;
export const IDEMPOTENCY_MAX_KEYS = 1000;
/** Rows a windowed read returns when no limit is given, and the most it returns. */
export const DEFAULT_ROW_WINDOW = 10;
export const MAX_ROW_WINDOW = 1000;
/** The `before` image of a change set is kept only up to this size, bytes (larger: omitted). */
export const MAX_CHANGE_IMAGE_BYTES = 2 * 1024 * 1024;
/** Longest `meta.category` accepted (our decision: any `[a-z0-9-]` slug, see src/cards/categories.ts). */
export const MAX_CATEGORY_CHARS = 32;
/**
 * Longest texts of a card a create or an update may set (characters as people count them): the
 * card's label and each input's label, placeholder and option are a line on the screen; the
 * description is prose for people and the chat agent. A card file with longer ones still loads.
 */
export const MAX_CARD_LABEL_CHARS = 200;
/** See MAX_CARD_LABEL_CHARS: a card's `description` (and `meta.description`). */
export const MAX_CARD_DESCRIPTION_CHARS = 4000;
/**
 * See MAX_CARD_LABEL_CHARS: a card's `meta.emoji`, shown before its title, and each of an
 * emoji-picker's `emojis`: an emoji or a few symbols, not a sentence.
 */
export const MAX_CARD_EMOJI_CHARS = 8;
/** See MAX_CARD_LABEL_CHARS: most `options` one input may list. */
export const MAX_INPUT_OPTIONS = 200;
/** Chat gateway client (src/chat/gateway/). Largest buffered reply or pending SSE event, bytes. */
export const GATEWAY_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Most of a non-2xx gateway body read for classification, bytes (rest is dropped). */
export const GATEWAY_MAX_ERROR_BODY_BYTES = 64 * 1024;
/** Longest upstream error message carried in a GatewayError, chars (never raw HTML). */
export const GATEWAY_MAX_ERROR_MESSAGE_CHARS = 300;
/** Most of an upstream error's text kept for finding the field a refusal names, chars. */
export const GATEWAY_MAX_ERROR_DETAIL_CHARS = 4_000;
/** How long a stream may stay open after every choice has its finish_reason, ms: trailing usage may still come, a missing `[DONE]` must not hang the turn. */
export const GATEWAY_FINISH_GRACE_MS = 750;
/**
 * A reply whose Content-Length values disagree has no known end: it is taken as ended once nothing
 * more arrived for this long, ms (its server may hold the connection open after it).
 */
export const GATEWAY_UNFRAMED_QUIET_MS = 1_000;
/** How long the writes of a turn that failed after writing are recognised when its message is sent again, ms. */
export const CHAT_RESEND_WINDOW_MS = 30 * 60_000;
/** Most messages whose failed-turn writes are remembered at once (oldest forgotten first). */
export const CHAT_RESEND_MAX_MESSAGES = 200;
/** Transient-failure retries per gateway call by default. */
export const DEFAULT_GATEWAY_MAX_RETRIES = 2;
/** First backoff step for a retried gateway call, ms; doubles per attempt. */
export const GATEWAY_RETRY_BASE_DELAY_MS = 500;
/**
 * Most `cache_control` marks one chat request carries: Anthropic refuses a fifth, and gateways
 * pass that limit on (docs/CHAT-AGENT.md "Prompt caching").
 */
export const MAX_CACHE_MARKS = 4;
/** Longest backoff step the client computes itself, ms (a server's Retry-After may ask more). */
export const GATEWAY_RETRY_MAX_BACKOFF_MS = 8_000;
/** Upper bound of the random jitter added to each retry wait, ms. */
export const GATEWAY_RETRY_JITTER_MS = 250;
/** Longest server-requested wait the client will sit out without a deadline, ms. */
export const GATEWAY_MAX_RETRY_WAIT_MS = 30_000;
/**
 * Longest time one gateway call waits, in all, for a server still loading its model (503
 * "Loading model"), ms; the turn's deadline may end it sooner. Loading a large model takes
 * minutes, far longer than the retries of a momentary failure.
 */
export const GATEWAY_MODEL_LOADING_MAX_WAIT_MS = 120_000;
/** Backoff steps between two asks of a server loading its model, without a stated estimate (8 × 500 ms = 4 s). */
export const GATEWAY_MODEL_LOADING_POLL_STEPS = 8;
/** Change sets older than this are pruned at start-up, days ... */
export const CHANGE_LOG_KEEP_DAYS = 90;
/** ... except the newest this many, whatever their age. */
export const CHANGE_LOG_KEEP_COUNT = 10_000;
/** Change sets per page of `GET /api/changes`: the default ... */
export const CHANGE_LIST_DEFAULT = 20;
/** ... and the most a page may ask for. */
export const CHANGE_LIST_MAX = 100;
/** How many later changes a refused undo names in its answer (the rest are counted). */
export const UNDO_CONFLICTS_SHOWN = 5;
/** Open MCP sessions kept over HTTP (the oldest is closed past this). */
export const MCP_MAX_SESSIONS = 100;
/** Messages an MCP session over HTTP keeps for a client that reconnects with Last-Event-ID (the oldest go first). */
export const MCP_REPLAY_EVENTS = 200;
/** And at most this many bytes of them (a tool result can be large), bytes. */
export const MCP_REPLAY_BYTES = 2 * 1024 * 1024;
/**
 * The largest MCP tool result sent, bytes of its JSON: Claude Desktop refuses a result over 1 MiB
 * ("result exceeds maximum length of 1048576") and the assistant gets nothing it can act on; this
 * leaves room for the JSON-RPC envelope around it.
 */
export const MCP_MAX_RESULT_BYTES = 1_000_000;
/** How long a destructive tool call waits for the person's approval before it is declined, ms. */
export const APPROVAL_TTL_MS = 10 * 60_000;
/** A top-level array longer than this is not copied into a change set's before image, rows. */
export const MAX_CHANGE_IMAGE_ROWS = 50_000;
/** Feedback log limits (docs/CHAT-AGENT.md note_feedback); the intent's is shared with the web app. */
export const MAX_FEEDBACK_CONTEXT_CHARS = 500;
export const MAX_FEEDBACK_TOOL_NAMES = 12;
/** read_doc returns at most this many bytes of a file (the API reference alone is over 200 000). */
export const MAX_DOC_BYTES = 300_000;
/** read_report returns at most this many bytes of a report's text. */
export const MAX_REPORT_READ_BYTES = 200_000;
/** Hygiene: a card needs this many rows before it can be called stale. */
export const STALE_MIN_ROWS = 3;
/** Hygiene: more rows than this is a `growth` finding. */
export const GROWTH_ROWS = 730;
/** Chat budgets: round-trips per turn ... */
export const DEFAULT_CHAT_MAX_TURNS = 36;
/** ... per-step soft budget, ms (0 disables) ... */
export const DEFAULT_ITER_TIMEOUT_MS = 180_000;
/** ... whole-turn wall clock, ms (0 disables). */
export const DEFAULT_TURN_DEADLINE_MS = 720_000;
/** The transport's hard ceiling per hop, ms (seed): the per-step budget must stay below it. */
export const TRANSPORT_HOP_CEILING_MS = 540_000;
/** SSE comment heartbeat interval, ms (`: ping` every 15 s). */
export const SSE_PING_INTERVAL_MS = 15_000;
/**
 * Most bytes an event stream may have waiting for a client that is not reading (a phone asleep
 * with its connection open): past it the client is dropped, so one stalled page cannot grow the
 * server's memory. A replay burst sent at the start of a stream comes on top. 1 MiB.
 */
export const SSE_MAX_BUFFERED_BYTES = 1024 * 1024;
/** How long a dropped slow client has to read what was already sent before its socket is cut, ms. */
export const SSE_SLOW_CLIENT_GRACE_MS = 10_000;
/** Conversations: at most this many per instance ... */
export const MAX_CONVERSATIONS = 100;
/** ... and this many messages each ... */
export const MAX_CONVERSATION_MESSAGES = 200;
/** ... and a write of messages over this many bytes is 413 (titles: src/common/limits.ts). */
export const MAX_CONVERSATION_WRITE_BYTES = 512 * 1024;
/** The transcript window fed to the loop, characters (~24k; the newest always goes through). */
export const WINDOW_CHARS = 24_000;
/** Events kept per running turn for replay (5000). */
export const TURN_EVENT_CAP = 5000;
/** How long a finished turn stays attachable, ms (30 s). */
export const TURN_LINGER_MS = 30_000;
/** Generated conversation titles: at most this many characters. */
export const MAX_GENERATED_TITLE_CHARS = 60;
/** Budget of the title side call, ms. */
export const TITLE_TIMEOUT_MS = 20_000;
/**
 * Rows a `generic-card` gets in the dashboard's first batch read with `data=recent`
 * (src/cards/view-data.ts): enough for the 30-day date scrub and a 30-point sparkline of a card
 * logged a few times a day; the page reads the rest only when it needs it.
 */
export const VIEW_RECENT_ROWS = 120;
/** The dashboard's batch read (src/cards/view-data.ts) keeps at most this many characters of card data JSON between requests. */
export const VIEW_DATA_CACHE_CHARS = 32 * 1024 * 1024;
/** Web Push (src/push/): live subscriptions kept per instance; past it the oldest goes (20). */
export const MAX_PUSH_SUBSCRIPTIONS = 20;
/** A subscription the push service refused stays this long (a heartbeat may revive it), ms: 7 days. */
export const DEAD_SUBSCRIPTION_KEEP_MS = 7 * 86_400_000;
/**
 * Answers in a row that are neither delivered nor worth a retry (a redirect, 400 and other 4xx
 * besides 404/410/401/403/429) after which a subscription is marked dead: the push service will
 * not take reminders at that address, so sending on every reminder only hides that it is broken.
 */
export const PUSH_REJECTIONS_BEFORE_DEAD = 3;
/** Longest subscription endpoint URL accepted, characters. */
export const MAX_PUSH_ENDPOINT_CHARS = 2048;
/** Longest device nickname, characters. */
export const MAX_PUSH_NICKNAME_CHARS = 64;
/** Largest encrypted push message body, bytes (RFC 8030 §7.2: services must take 4096). */
export const MAX_PUSH_PAYLOAD_BYTES = 4096;
/** How long a push service keeps an undelivered reminder, s: a reminder later than that is noise. */
export const PUSH_TTL_SECONDS = 300;
/** Tries per push for a 429 or 5xx answer or a network failure (the first try included). */
export const PUSH_MAX_ATTEMPTS = 4;
/** First wait before retrying a push, ms; doubles per try unless the service's Retry-After says otherwise. */
export const PUSH_RETRY_BASE_MS = 1000;
/** Longest Retry-After the sender sits out, ms. */
export const PUSH_MAX_RETRY_WAIT_MS = 30_000;
/** Timeout of one request to a push service, ms. */
export const PUSH_REQUEST_TIMEOUT_MS = 15_000;
/**
 * A slot missed while the server was down or asleep still fires if the server is back within
 * this long after it, ms; older slots are recorded as missed, never sent in a burst.
 */
export const REMINDER_CATCH_UP_GRACE_MS = 15 * 60_000;
/** One test push per reminder per this long, ms (a 429 otherwise). */
export const TEST_PUSH_INTERVAL_MS = 60_000;
/** Entries of the recent-fires ring in the notification state (diagnostics). */
export const RECENT_FIRES_KEPT = 50;
/** Longest text a `{schedule_due}` or `{missed_earlier}` placeholder expands to, characters. */
export const MAX_PLACEHOLDER_CHARS = 160;
/** Import archives (src/data/zip-reader.ts): most entries one archive may hold ... */
export const IMPORT_MAX_ENTRIES = 20_000;
/** ... most bytes all its entries may unpack to, and most one entry may (2 GiB) ... */
export const IMPORT_MAX_TOTAL_BYTES = 2 * 1024 ** 3;
/** ... highest compression ratio of an entry larger than IMPORT_RATIO_FLOOR_BYTES (a zip bomb unpacks 1000× or more) ... */
export const IMPORT_MAX_RATIO = 200;
export const IMPORT_RATIO_FLOOR_BYTES = 1024 * 1024;
/** ... largest `klebb-export.json`, and largest single line of a line file, bytes. */
export const IMPORT_MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
export const IMPORT_MAX_LINE_BYTES = 16 * 1024 * 1024;
/** Largest upload of an archive to the web wizard, bytes (compressed). */
export const IMPORT_MAX_UPLOAD_BYTES = 2 * 1024 ** 3;
/** Automatic snapshots kept by default (src/data/backups.ts): daily ones ... */
export const DEFAULT_BACKUP_DAILY = 7;
/** ... and weekly ones (the newest of each of the last weeks). */
export const DEFAULT_BACKUP_WEEKLY = 4;
/** Snapshots taken before an import or a restore, kept for Roll back. */
export const BACKUP_PRE_IMPORT_KEEP = 3;
/** How often the server checks whether the daily snapshot is due, ms. */
export const BACKUP_CHECK_INTERVAL_MS = 60 * 60 * 1000;
/**
 * Uploaded reports (src/reports/). Most uploaded reports an instance keeps by default
 * (KLEBB_REPORTS_MAX); hand-written markdown reports do not count.
 */
export const DEFAULT_REPORTS_MAX = 20;
/** Largest uploaded report file, bytes (413 above). */
export const MAX_REPORT_UPLOAD_BYTES = 30 * 1024 * 1024;
/** A PDF with more pages than this is rejected unread (a page count is cheap to fake, reading is not). */
export const MAX_REPORT_PDF_PAGES = 200;
/** Pages of a scanned PDF rendered and read by OCR; later pages are named as not read. */
export const MAX_REPORT_OCR_PAGES = 20;
/** An image wider or taller than this is rejected before any decoder sees it, px. */
export const MAX_REPORT_IMAGE_SIDE_PX = 12_000;
/** ... and one with more pixels than this (a 50 MP phone photo still fits). */
export const MAX_REPORT_IMAGE_PIXELS = 60_000_000;
/** Resolution scanned PDF pages are rendered at for OCR, dots per inch. */
export const REPORT_OCR_DPI = 300;
/** A PDF whose text layer has fewer visible characters per page than this is treated as a scan. */
export const SPARSE_TEXT_CHARS_PER_PAGE = 40;
/** Wall clock of one external program run (pdftotext, pdftoppm of one page, tesseract of one page), ms. */
export const REPORT_PROGRAM_TIMEOUT_MS = 120_000;
/** Address space one external program may take, bytes. */
export const REPORT_PROGRAM_MEMORY_BYTES = 2 * 1024 * 1024 * 1024;
/** Largest file one external program may write (a rendered page), bytes. */
export const REPORT_PROGRAM_FILE_BYTES = 256 * 1024 * 1024;
/** Most extracted text kept per report, characters (the rest is cut and the cut is named). */
export const MAX_REPORT_TEXT_CHARS = 300_000;
/** Most of the extracted text sent to the model in the one understanding call, characters. */
export const MAX_REPORT_PROMPT_CHARS = 60_000;
/** A DOCX is refused unread when its parts unpack to more than this, bytes, or hold more entries. */
export const MAX_DOCX_UNPACKED_BYTES = 64 * 1024 * 1024;
export const MAX_DOCX_ENTRIES = 2_000;
/** Budget of the understanding call per attempt, ms. */
export const REPORT_MODEL_TIMEOUT_MS = 180_000;
/** Bullet points a report summary may have. */
export const MAX_REPORT_BULLETS = 5;

/**
 * A request body from this size on (bytes) makes the server give memory back once it is quiet
 * again (src/http/memory-release.ts); chunked bodies of unknown length count as large.
 */
export const MEMORY_RELEASE_MIN_BODY_BYTES = 1_000_000;

/**
 * How long no request must have been answered, after start-up or a large request, before memory
 * is given back, ms.
 */
export const MEMORY_RELEASE_IDLE_MS = 5_000;

/** The longest a due memory release is put off by requests still coming in, ms. */
export const MEMORY_RELEASE_MAX_WAIT_MS = 60_000;

/**
 * SQLite page cache of each of the server's two connections and of an Apple Health import's
 * worker thread, KiB (SQLite's own default; the 16 MB better-sqlite3 builds in filled up during
 * one large write and, freed afterwards, stayed resident as holes in the C heap; an import's
 * worker filled it with the samples it wrote). Reads past it come from the system's file cache.
 */
export const SERVER_SQLITE_CACHE_KIB = 2_000;
/**
 * A spooled upload or webhook body older than this is removed at start-up even when its owner
 * process still seems alive (a reused pid, or a process of another host), ms (7 days: no import
 * runs that long).
 */
export const SPOOL_ORPHAN_AGE_MS = 7 * 24 * 3600 * 1000;
