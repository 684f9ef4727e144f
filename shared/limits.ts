// Spec §8 and the reference's constants, each with one name. Nothing else in the code base spells them.

export const SESSIONS_LIMIT_DEFAULT = 50;
export const SESSIONS_LIMIT_MAX = 500;
export const SESSIONS_OFFSET_DEFAULT = 0;
/** The proxy's, flow-show's and promote's threshold when none is given; FlowSummary.lookups is counted at it. */
export const FLOW_THRESHOLD_DEFAULT = 0.3;
export const DIFF_TOLERANCE_DEFAULT = 0.05;
/** GET /api/flows/:key/whatif: the newest sessions it reads when none is said, and the most it reads. */
export const WHATIF_SESSIONS_DEFAULT = 100;
export const WHATIF_SESSIONS_MAX = 5_000;
export const JOB_OUTPUT_TAIL_BYTES = 64 * 1024;
export const OVERVIEW_DAYS = 14;
export const OVERVIEW_SESSIONS = 8;
export const OVERVIEW_JOBS = 5;
export const SESSIONS_7D_MS = 7 * 86_400_000;
export const DAY_MS = 86_400_000;
export const PROBE_TIMEOUT_MS = 15_000;
export const PROBE_HTTP_CONNECT_MS = 10_000;
export const PROBE_MAX_PAGES = 20;
export const PROBE_PROTOCOL = '2025-06-18';
/** The most a connection test reads from its server, all together: stdout, stderr, HTTP answers and events. */
export const PROBE_READ_MAX_BYTES = 8 * 1024 * 1024;
/** Connection tests running at once; one more is refused (429) until one ends. */
export const PROBE_RUNNING_MAX = 4;
export const WATCH_POLL_MS = 1_000;
export const SSE_PING_MS = 15_000;
export const SSE_BUFFER_EVENTS = 256;
export const JOB_PROGRESS_MS = 250;
export const JOB_CANCEL_DRAIN_MS = 2_000;
export const SCAN_DEPTH = 3;
export const TOKEN_BYTES = 32;
export const KEY_HASH_HEX = 8;
export const HEALTHCHECK_TIMEOUT_MS = 5_000;
export const SESSION_RESULT_CUT_BYTES = 64 * 1024;
export const TIMELINE_SUMMARY_CHARS = 200;
export const STAGE_WINDOW_DEFAULT = 50;
export const WILSON_Z = 1.6448536;
export const REGISTRY_NAME_MAX = 64;
export const REGISTRY_DESCRIPTION_MAX = 1000;
export const REGISTRY_COMMAND_ARGS_MAX = 256;
export const REGISTRY_ARG_BYTES_MAX = 4096;
export const REGISTRY_ENV_NAME_MAX = 128;
export const REGISTRY_URL_MAX = 2048;
/** JSON request bodies larger than this are refused (400): no endpoint needs more. */
export const REQUEST_BODY_MAX_BYTES = 1024 * 1024;
/** A client call this soon after its turn's last answer may still belong to that turn (session-format §3.5). */
export const SESSION_SAME_TURN_MS = 500;
/** The longest session-log line the console reads (a longer one makes the log unreadable, not the worker crash). */
export const SESSION_LINE_MAX_BYTES = 64 * 1024 * 1024;
/** A call's payload larger than this is shown cut, with its size, "show all" and the raw download. */
export const PAYLOAD_DISPLAY_BYTES = 1024 * 1024;
/** The outline's short forms of a call's arguments and result, in code points. */
export const OUTLINE_SHORT_CHARS = 120;
/** Find inside a session: the longest query, in code points. */
export const SESSION_FIND_MAX_CHARS = 200;
/** Raw-log events per page, default and most. */
export const SESSION_EVENTS_LIMIT_DEFAULT = 200;
export const SESSION_EVENTS_LIMIT_MAX = 1000;
/** The raw view's lines are cut at this many bytes each (the download has them whole). */
export const SESSION_LINE_SHOW_BYTES = 64 * 1024;
/** Logs up to this size are fetched whole for the raw view; bigger ones are paged by line. */
export const RAW_WHOLE_MAX_BYTES = 4 * 1024 * 1024;
/**
 * Session-log lines up to this long are read as they are. In a longer line, every string longer than
 * SESSION_VALUE_KEEP_BYTES is cut for display (the raw download keeps it whole): a worker's heap holds the
 * line's text and values, and a 30 MB tool result would fill it. Flow and confirmation logs are read so too.
 */
export const SESSION_LINE_FULL_BYTES = 1024 * 1024;
/** What a string cut for display keeps, in bytes: under SESSION_RESULT_CUT_BYTES, so a result keeps its mark. */
export const SESSION_VALUE_KEEP_BYTES = 63 * 1024;
/**
 * The most a long line may hold besides its cut strings (many small values): past it, 422. A line of 4 MiB
 * of small objects still fits a worker's heap once parsed and copied into the view; twice that does not.
 */
export const SESSION_LINE_REST_MAX_BYTES = 4 * 1024 * 1024;
/** servers.json past this size is not read (422): it is read whole on the main thread; real ones are KBs. */
export const REGISTRY_FILE_MAX_BYTES = 16 * 1024 * 1024;
/** A flow file past this size does not load (its error says so): parsed whole in a worker, it would not fit. */
export const FLOW_FILE_MAX_BYTES = 32 * 1024 * 1024;
/** A job record past this size is not a job (skipped): records are read whole at start; real ones are KBs. */
export const JOB_RECORD_MAX_BYTES = 1024 * 1024;
/** A one-time sign-in code (the `--open` link) signs in once, within this long after it was made. */
export const SIGN_IN_CODE_TTL_MS = 60_000;
/** Random bytes in a one-time sign-in code (hex in the URL). */
export const SIGN_IN_CODE_BYTES = 16;
/** A browser's sign-in (the cookie made from the token link or a code) ends this long after it was made. */
export const SIGN_IN_TTL_MS = 12 * 60 * 60 * 1000;
/** Random bytes in a sign-in secret (hex in the cookie). */
export const SIGN_IN_SECRET_BYTES = 32;
/** Live sign-ins kept at most; the oldest ends first when more are made. */
export const SIGN_INS_MAX = 256;
/** GET /api/savings: the period's default length and its longest, in UTC days. */
export const SAVINGS_DAYS_DEFAULT = 14;
export const SAVINGS_DAYS_MAX = 365;

/** GET /api/search: the phrase's length in characters, sessions per page, hits sent per session. */
export const SEARCH_TEXT_MIN = 2;
export const SEARCH_TEXT_MAX = 256;
export const SEARCH_LIMIT_DEFAULT = 50;
export const SEARCH_LIMIT_MAX = 200;
export const SEARCH_HITS_MAX = 20;
/** Characters of decoded text kept on each side of a match in a hit's snippet. */
export const SEARCH_SNIPPET_CONTEXT = 60;
