// Package checkevent holds `roster repo check-event`: whether an event's
// author had a maintainer role when it was made.
package checkevent
