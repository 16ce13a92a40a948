package hugeheap

// These two read text without the strings package: importing only
// syscall and unsafe keeps this package's init ahead of the packages that
// allocate most (see the package doc).

// bracketed is the word in brackets of a sysfs choice such as
// "always [madvise] never", "" when none is.
func bracketed(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] != '[' {
			continue
		}
		for j := i + 1; j < len(s); j++ {
			if s[j] == ']' {
				return s[i+1 : j]
			}
		}
	}
	return ""
}

// disablesTHP says whether a GODEBUG value turns the runtime's huge pages
// off, read as the runtime reads it: the last disablethp setting that is a
// number counts, and any number but 0 turns them off.
func disablesTHP(godebug string) bool {
	const key = "disablethp="
	off := false
	for len(godebug) > 0 {
		kv := godebug
		if i := indexComma(godebug); i >= 0 {
			kv, godebug = godebug[:i], godebug[i+1:]
		} else {
			godebug = ""
		}
		if len(kv) >= len(key) && kv[:len(key)] == key {
			if n, ok := number(kv[len(key):]); ok {
				off = n != 0
			}
		}
	}
	return off
}

func indexComma(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			return i
		}
	}
	return -1
}

// number reads a decimal number of at most nine digits.
func number(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}
