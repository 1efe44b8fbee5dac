"""The one exception type the CLI turns into a one-line error."""


class PaperchatError(Exception):
    """A user-facing error: the message is printed as one line, exit status non-zero.

    Raised for bad input (missing, empty or binary files, malformed lines,
    missing columns), store problems (not writable, locked, settings mismatch)
    and configuration mistakes. ``exit_code`` is the process status (default 1;
    2 is reserved for usage errors, as Click does).
    """

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.exit_code = exit_code
