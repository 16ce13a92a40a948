// Package errorcodes holds no code: its test lists every machine error
// code the program can print (the `code` of a --json error, a refusal's
// code, a health finding's code) from the source itself and fails when
// one is documented on no page of docs/, so a new code cannot ship
// undocumented.
package errorcodes
