// Package render turns roster's values into text: people by name, fitted
// human rows, suggested commands, error documents and the CI formats. It
// imports only cmdutil of the command line.
package render
