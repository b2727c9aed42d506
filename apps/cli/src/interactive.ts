/**
 * Whether a person reads the CLI's log lines at a terminal. The CLI logs on stderr (stdout is
 * kept for a command's result, as `ranking correct`'s event id), so stderr decides: a terminal
 * gets today's plain lines and progress bars, anything else (a pipe, a file, a job runner's
 * collector) JSON log lines.
 */
export const interactive = (): boolean => process.stderr.isTTY === true;
