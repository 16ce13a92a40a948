package termui

// ColorWanted decides whether output to a stream is styled, by the
// conventions other command-line tools (gh, git, ls) follow:
//
//   - NO_COLOR set to any non-empty value: never (no-color.org; it wins
//     over everything else, CLICOLOR_FORCE included);
//   - CLICOLOR_FORCE set to anything but "0": always, even when the stream
//     is a pipe or a file, and whatever CLICOLOR or TERM say;
//   - CLICOLOR=0 or TERM=dumb: never;
//   - otherwise: when the stream is a terminal.
//
// getenv reads the environment; an unset variable reads as "".
func ColorWanted(tty bool, getenv func(string) string) bool {
	if getenv("NO_COLOR") != "" {
		return false
	}
	if f := getenv("CLICOLOR_FORCE"); f != "" && f != "0" {
		return true
	}
	if getenv("CLICOLOR") == "0" || Dumb(getenv) {
		return false
	}
	return tty
}

// Dumb reports TERM=dumb: a terminal that moves no cursor and erases
// nothing, so neither colour nor a self-erasing progress line belongs on it.
func Dumb(getenv func(string) string) bool { return getenv("TERM") == "dumb" }
