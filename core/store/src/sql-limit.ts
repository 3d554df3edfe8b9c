/**
 * The LIMIT of a statement whose limit is bound at each execution. Measured with better-sqlite3 12.11
 * (SQLite 3.53, built with STAT4): a bare `LIMIT ?` costs about 10 µs more per execution than the same
 * statement with the limit as an expression — ten times a one-row seek on `messages_ready`, which every
 * single receive makes. SQLite lets the planner read a bare limit's value, so binding one makes it prepare
 * the statement again; an expression it does not read.
 */
export const LIMIT = 'LIMIT CAST(? AS INTEGER)';
