package clitest

import "strings"

// SwOutsiderSK holds no grant and never did.
var SwOutsiderSK = strings.Repeat("37", 32)
