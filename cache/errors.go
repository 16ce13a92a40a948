package cache

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/roster-cli/roster/suggest"
)

// Reason classifies why a cache file cannot be used.
type Reason string

const (
	ReasonCorrupt     Reason = "corrupt"
	ReasonNewerSchema Reason = "newer-schema"
	ReasonLocked      Reason = "locked"
	ReasonUnreadable  Reason = "unreadable"
	// ReasonReadOnly is a file opened read-only: it is read, and what
	// could not be written is this error.
	ReasonReadOnly Reason = "read-only"
)

// Sentinels for errors.Is(err, cache.ErrCorrupt) and friends.
var (
	ErrCorrupt     = errors.New("cache file is corrupt")
	ErrNewerSchema = errors.New("cache file is from a newer roster")
	ErrLocked      = errors.New("cache file is locked")
	ErrUnreadable  = errors.New("cache file cannot be opened")
	ErrReadOnly    = errors.New("cache file is read-only")
)

// Error says which cache file is unusable, why, and how to get past it.
type Error struct {
	Path   string
	Reason Reason
	// Schema is the file's version for ReasonNewerSchema.
	Schema int
	Err    error
}

func (e *Error) Error() string {
	switch e.Reason {
	case ReasonNewerSchema:
		return fmt.Sprintf("cache %s has schema version %d, newer than this roster understands (%d): upgrade roster, run `roster cache clear`, or pass --home <another dir>",
			e.Path, e.Schema, SchemaVersion)
	case ReasonLocked:
		return fmt.Sprintf("cache %s is locked by another roster process: wait for it to finish, or pass --home <another dir>", e.Path)
	case ReasonReadOnly:
		return fmt.Sprintf("cache %s is read-only (%v): roster reads it but cannot add to it; make it and its directory writable (chmod u+w), or pass --home <a writable directory>", e.Path, e.Err)
	case ReasonUnreadable:
		if errors.Is(e.Err, fs.ErrPermission) {
			return fmt.Sprintf("cache %s cannot be created or opened: the operating system does not permit it (%v): make its directory writable, or pass --home <a writable directory>", e.Path, e.Err)
		}
		return fmt.Sprintf("cache %s cannot be opened (%v): fix its permissions or move what is in the way, or pass --home <another dir>", e.Path, e.Err)
	default:
		return fmt.Sprintf("cache %s is corrupt or not a roster cache (%v): run `roster cache clear` (it only holds data roster can fetch again), or pass --home <another dir>", e.Path, e.Err)
	}
}

func (e *Error) Unwrap() error { return e.Err }

// Is matches the sentinel for the error's reason.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrCorrupt:
		return e.Reason == ReasonCorrupt
	case ErrNewerSchema:
		return e.Reason == ReasonNewerSchema
	case ErrLocked:
		return e.Reason == ReasonLocked
	case ErrUnreadable:
		return e.Reason == ReasonUnreadable
	case ErrReadOnly:
		return e.Reason == ReasonReadOnly
	}
	return false
}

// Commands are what the user can run next. `roster cache clear` is
// rendered with the user's --home, so it clears the broken cache and not
// the default one.
func (e *Error) Commands() []suggest.Command {
	if e.Reason == ReasonLocked || e.Reason == ReasonUnreadable || e.Reason == ReasonReadOnly {
		return nil
	}
	return []suggest.Command{suggest.Roster("cache", "clear")}
}
