package strictjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// DecodeStrict decodes data into v (a non-nil pointer) after checking the
// whole document against v's type: see the package comment for every rule.
func DecodeStrict(data []byte, v any) error {
	_, err := decode(data, v)
	return err
}

// DecodeCanonical strictly decodes data into v and returns the canonical bytes
// of the same document: the bytes to hash. Nothing is canonicalized unless the
// strict decode succeeded.
func DecodeCanonical(data []byte, v any) ([]byte, error) {
	tree, err := decode(data, v)
	if err != nil {
		return nil, err
	}
	return appendCanonical(make([]byte, 0, len(data)), tree), nil
}

func decode(data []byte, v any) (value, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return value{}, &Error{Err: ErrType, Offset: -1, Detail: "DecodeStrict needs a non-nil pointer"}
	}
	tree, err := parse(data)
	if err != nil {
		return value{}, err
	}
	if err := check(tree, rv.Type().Elem(), "$"); err != nil {
		return value{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return value{}, &Error{Err: ErrType, Offset: -1, Detail: err.Error()}
	}
	return tree, nil
}

var (
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// opaque types decode themselves; their contents are not checked here.
func opaque(t reflect.Type) bool {
	if t == rawMessageType {
		return true
	}
	return t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType)
}

// check walks the parsed document against the Go type it will decode into.
func check(v value, t reflect.Type, path string) error {
	if opaque(t) {
		return nil
	}
	switch t.Kind() {
	case reflect.Interface:
		return nil
	case reflect.Pointer:
		if v.kind == kindNull {
			return nil
		}
		return check(v, t.Elem(), path)
	}
	if v.kind == kindNull {
		return &Error{Err: ErrNull, Path: path, Offset: -1}
	}
	switch t.Kind() {
	case reflect.Struct:
		return checkStruct(v, t, path)
	case reflect.Map:
		if v.kind != kindObject {
			return typeErr(v, "object", path)
		}
		for _, m := range v.members {
			if err := check(m.val, t.Elem(), path+"."+m.key); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && v.kind == kindString && t.Kind() == reflect.Slice {
			return nil // []byte is base64 text
		}
		if v.kind != kindArray {
			return typeErr(v, "array", path)
		}
		for i, e := range v.arr {
			if err := check(e, t.Elem(), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		return nil
	case reflect.String:
		if v.kind != kindString {
			return typeErr(v, "string", path)
		}
	case reflect.Bool:
		if v.kind != kindBool {
			return typeErr(v, "boolean", path)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if v.kind != kindNumber {
			return typeErr(v, "integer", path)
		}
	case reflect.Float32, reflect.Float64:
		if v.kind != kindNumber {
			return typeErr(v, "number", path)
		}
	}
	return nil
}

func typeErr(v value, want, path string) error {
	return &Error{Err: ErrType, Path: path, Offset: -1, Detail: "got " + v.kind.String() + ", want " + want}
}

func checkStruct(v value, t reflect.Type, path string) error {
	if v.kind != kindObject {
		return typeErr(v, "object", path)
	}
	fields := fieldsOf(t)
	present := make(map[string]bool, len(v.members))
	for _, m := range v.members {
		f, ok := fields.byName[m.key]
		if !ok {
			return &Error{Err: ErrUnknownField, Path: path, Offset: -1, Detail: strconv.Quote(m.key)}
		}
		present[m.key] = true
		if err := check(m.val, f.typ, path+"."+m.key); err != nil {
			return err
		}
	}
	for _, name := range fields.required {
		if !present[name] {
			return &Error{Err: ErrMissingField, Path: path, Offset: -1, Detail: strconv.Quote(name)}
		}
	}
	return nil
}

type fieldInfo struct {
	typ reflect.Type
}

type structFields struct {
	byName   map[string]fieldInfo
	required []string
}

var fieldCache sync.Map // reflect.Type -> *structFields

// fieldsOf lists the exact JSON names a struct accepts, flattening embedded
// structs as encoding/json does.
func fieldsOf(t reflect.Type) *structFields {
	if cached, ok := fieldCache.Load(t); ok {
		return cached.(*structFields)
	}
	sf := &structFields{byName: map[string]fieldInfo{}}
	collectFields(t, sf)
	fieldCache.Store(t, sf)
	return sf
}

func collectFields(t reflect.Type, sf *structFields) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				collectFields(et, sf)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		sf.byName[name] = fieldInfo{typ: ft}
		optional := f.Tag.Get("strict") == "optional"
		for _, o := range strings.Split(opts, ",") {
			if o == "omitempty" || o == "omitzero" {
				optional = true
			}
		}
		if !optional {
			sf.required = append(sf.required, name)
		}
	}
}
