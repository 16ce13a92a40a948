package watch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Fingerprint is a comparable digest of a JSON document's answer: doc as
// JSON with the object keys named in drop removed at every depth (what
// says how the read went rather than what it found: each relay's status,
// timings, counts), in a canonical form (keys sorted), hashed. Two
// documents whose answer is the same have the same fingerprint whatever
// order a map was built in.
func Fingerprint(doc any, drop ...string) (string, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return "", err
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", err
	}
	skip := make(map[string]bool, len(drop))
	for _, k := range drop {
		skip[k] = true
	}
	canon, err := json.Marshal(without(v, skip))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:]), nil
}

func without(v any, skip map[string]bool) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if skip[k] {
				delete(t, k)
				continue
			}
			t[k] = without(x, skip)
		}
	case []any:
		for i, x := range t {
			t[i] = without(x, skip)
		}
	}
	return v
}
