// Package account holds login, logout and whoami: the signer and its keys.
package account
