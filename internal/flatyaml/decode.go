package flatyaml

import (
	"fmt"
	"slices"
)

// String is key's scalar: "" when the key is missing or null, an error when
// it holds a list.
func (d Doc) String(key string) (string, error) {
	v, ok := d.Values[key]
	switch {
	case !ok || v.Kind == Null:
		return "", nil
	case v.Kind == List:
		return "", &Error{v.Line, fmt.Sprintf("%s is a list; it takes one value", key)}
	}
	return v.Scalar, nil
}

// Strings is key's list: nil when the key is missing or null, an error when
// it holds one scalar (write it as a list: "key: [value]").
func (d Doc) Strings(key string) ([]string, error) {
	v, ok := d.Values[key]
	switch {
	case !ok || v.Kind == Null:
		return nil, nil
	case v.Kind == Scalar:
		return nil, &Error{v.Line, fmt.Sprintf("%s takes a list of values, like %s: [%s]", key, key, v.Scalar)}
	}
	return v.List, nil
}

// Unknown is an error naming the first key that is not one of known, or
// nil.
func (d Doc) Unknown(known ...string) error {
	for _, k := range d.Keys {
		if !slices.Contains(known, k) {
			return &Error{d.Values[k].Line, fmt.Sprintf("unknown key %q (roster reads %v)", k, known)}
		}
	}
	return nil
}
